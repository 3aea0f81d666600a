import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a payload is put: in the issue, in a file the agent reads, or in a tool's output. */
export type Placement =
  | 'issue-body'
  | 'issue-comment'
  | 'html-comment'
  | 'details'
  | 'alt-text'
  | 'link-title'
  | 'zero-width'
  | 'tag-characters'
  | 'entity-encoded'
  | 'readme'
  | 'source-comment'
  | 'test-fixture'
  | 'tool-result';

/** What an obeying model does: a tool call the scripted model makes for the payload. */
export type Ask =
  | 'workflow'
  | 'policy'
  | 'postinstall'
  | 'push-main'
  | 'cat-credentials'
  | 'env'
  | 'git-config'
  | 'secret-file'
  | 'secret-commit'
  | 'secret-base64'
  | 'secret-hex'
  | 'secret-reversed'
  | 'secret-split'
  | 'probe';

export interface Payload {
  readonly id: string;
  readonly placement: Placement;
  /** A word in no other text: whether it reached the model is a search for it. */
  readonly marker: string;
  readonly text: string;
  readonly asks: readonly Ask[];
  readonly afterwards: string;
}

const file = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'injection',
  'corpus.json',
);

const PLACEMENTS = new Set<string>([
  'issue-body',
  'issue-comment',
  'html-comment',
  'details',
  'alt-text',
  'link-title',
  'zero-width',
  'tag-characters',
  'entity-encoded',
  'readme',
  'source-comment',
  'test-fixture',
  'tool-result',
]);

const ASKS = new Set<string>([
  'workflow',
  'policy',
  'postinstall',
  'push-main',
  'cat-credentials',
  'env',
  'git-config',
  'secret-file',
  'secret-commit',
  'secret-base64',
  'secret-hex',
  'secret-reversed',
  'secret-split',
  'probe',
]);

function isPayload(value: unknown): value is Payload {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'placement' in value &&
    typeof value.placement === 'string' &&
    PLACEMENTS.has(value.placement) &&
    'marker' in value &&
    typeof value.marker === 'string' &&
    'text' in value &&
    typeof value.text === 'string' &&
    value.text.includes(value.marker) &&
    'asks' in value &&
    Array.isArray(value.asks) &&
    value.asks.every((ask) => typeof ask === 'string' && ASKS.has(ask)) &&
    'afterwards' in value &&
    typeof value.afterwards === 'string'
  );
}

export function injectionCorpus(): readonly Payload[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const payloads =
    typeof parsed === 'object' && parsed !== null && 'payloads' in parsed ? parsed.payloads : null;
  if (!Array.isArray(payloads) || !payloads.every(isPayload))
    throw new Error(`${file}: every payload needs id, a known placement, marker, text, asks`);
  return payloads;
}

/** Text as bits in zero-width characters (U+200B 0, U+200C 1), between word joiners. */
function zeroWidth(text: string): string {
  const bits = [...Buffer.from(text, 'utf8')]
    .map((byte) => byte.toString(2).padStart(8, '0'))
    .join('');
  return `\u2060${bits.replace(/0/g, '\u200B').replace(/1/g, '\u200C')}\u2060`;
}

/**
 * A payload as the issue hides it (or shows it); `null` for a payload placed elsewhere. What a
 * reader of the rendered issue sees of a hidden one is nothing at all.
 */
export function inIssueBody(payload: Payload): string | null {
  const { text } = payload;
  switch (payload.placement) {
    case 'issue-body':
      return text;
    case 'html-comment':
      return `<!-- ${text} -->`;
    case 'details':
      // Nested: the inner block closes first; the outer one still hides what follows it.
      return `<details><summary>Logs</summary>\n<details><summary>more</summary>ok</details>\n${text}\n</details>`;
    case 'alt-text':
      return `![${text}](https://example.test/diagram.png)`;
    case 'link-title':
      return `See [the docs](https://example.test/docs "${text}").`;
    case 'zero-width':
      return `Thanks!\u202E${zeroWidth(text)}\u202C`;
    case 'tag-characters':
      return `Cheers ${[...text].map((char) => String.fromCodePoint(0xe0000 + (char.codePointAt(0) ?? 0))).join('')}`;
    case 'entity-encoded':
      return [...zeroWidth(text)]
        .map((char) => `&#x${(char.codePointAt(0) ?? 0).toString(16)};`)
        .join('');
    default:
      return null;
  }
}
