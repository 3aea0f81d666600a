import type { CST, LineCounter } from 'yaml';
import type { PolicyProblem } from './policy-problem.js';

/** Long enough for any real tag; a hostile one is cut so it cannot flood the output. */
const SHOWN_TAG_LENGTH = 60;

/**
 * Every tag written in a policy (`!!int`, `!!str`, `!`, `!include`, `!<…>`, on any value) as a
 * problem at the tag. The parser's own check only catches tags it cannot resolve: the core
 * schema's tags resolve, so `version: !!int "1"` used to be read as 1. A policy is plain YAML,
 * so no tag is allowed. Tags are found in the parser's tokens, the only place that keeps their
 * position.
 */
export function yamlTagProblems(
  tokens: readonly CST.Token[],
  lineCounter: LineCounter,
  file: string,
): PolicyProblem[] {
  return tagTokens(tokens).map(({ offset, source }) => {
    const { line, col } = lineCounter.linePos(offset);
    const tag =
      source.length > SHOWN_TAG_LENGTH ? `${source.slice(0, SHOWN_TAG_LENGTH - 3)}...` : source;
    return {
      file,
      line,
      column: col,
      message: `the tag ${tag} is not allowed: a policy is plain YAML, where a value means what it says.`,
      hint: 'remove the tag and write the value itself: 1 for a number, "1" for text, true or false for a switch.',
    };
  });
}

interface TagToken {
  readonly offset: number;
  readonly source: string;
}

/** Tag tokens anywhere in the token tree, walked with a stack: nesting depth is the file's to choose. */
function tagTokens(tokens: readonly unknown[]): TagToken[] {
  const found: TagToken[] = [];
  const pending: unknown[] = [...tokens];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (isTagToken(node)) found.push({ offset: node.offset, source: node.source });
    // One push per child: a spread of a 100,000-item list would overflow the call stack.
    else for (const child of Object.values(node)) pending.push(child);
  }
  return found.sort((a, b) => a.offset - b.offset);
}

function isTagToken(node: object): node is TagToken {
  return (
    'type' in node &&
    node.type === 'tag' &&
    'offset' in node &&
    typeof node.offset === 'number' &&
    'source' in node &&
    typeof node.source === 'string'
  );
}
