import picomatch from 'picomatch';

export type PathTest = (path: string) => boolean;

/**
 * Whether a repository path matches any of the policy's globs (paths.core, ignore, tests,
 * generated, adapter globs). `dot: true` everywhere in AUREUS: dot-folders are tracked code
 * like any other. No globs match nothing.
 */
export function globMatcher(globs: readonly string[]): PathTest {
  if (globs.length === 0) return () => false;
  const matches = picomatch([...globs], { dot: true });
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
