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
  return (path) => matches(path);
}
