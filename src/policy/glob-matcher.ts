import picomatch from 'picomatch';

export type PathTest = (path: string) => boolean;

const MATCH_OPTIONS = { dot: true } as const;

/**
 * Whether a repository path matches any of the policy's globs (paths.core, ignore, tests,
 * generated, adapter globs). `dot: true` everywhere in AUREUS: dot-folders are tracked code
 * like any other. No globs match nothing.
 */
export function globMatcher(globs: readonly string[]): PathTest {
  if (globs.length === 0) return () => false;
  const matches = picomatch([...globs], MATCH_OPTIONS);
  // Rules and pricing ask about the same few hundred paths over and over: one regex run each.
  const answers = new Map<string, boolean>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = matches(path);
      answers.set(path, answer);
    }
    return answer;
  };
}

/**
 * Why picomatch cannot compile `glob` as written, in its own words, or undefined when it can.
 * Left to itself picomatch fails open: an unclosed `[` or `(` turns into a literal character
 * and an unclosed `{` or a backwards range `[z-a]` into a pattern that matches nothing, so a
 * policy glob would silently match no file. `strictBrackets` makes it refuse unbalanced
 * brackets, braces and parentheses, and `debug` makes it throw the regular expression's error
 * instead of returning a pattern that matches nothing.
 */
export function globSyntaxError(glob: string): string | undefined {
  try {
    picomatch.makeRe(glob, { ...MATCH_OPTIONS, strictBrackets: true, debug: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
