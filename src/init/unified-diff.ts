import { createTwoFilesPatch, OMIT_HEADERS } from 'diff';

/**
 * A unified diff (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks, three lines of context, as git
 * prints them) from `before` to `after`, or '' when they are equal. jsdiff writes the hunks;
 * this only names the sides.
 */
export function unifiedDiff(
  before: string,
  after: string,
  names: readonly [string, string],
): string {
  if (before === after) return '';
  const hunks = createTwoFilesPatch(names[0], names[1], before, after, undefined, undefined, {
    context: 3,
    headerOptions: OMIT_HEADERS,
  });
  return `--- ${names[0]}\n+++ ${names[1]}\n${hunks}`;
}
