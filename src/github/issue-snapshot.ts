import { createHash } from 'node:crypto';
import { HIDDEN_ATTRIBUTE, HIDING_ELEMENTS } from './visible-lines.js';

/**
 * The issue text the builder's model is given: what a human reading the rendered issue sees,
 * and nothing a human does not (THREATS row 9). Taken once at trigger time (the title, the body
 * and people's comments up to the trigger) and bound by a hash to the body as it was then and
 * the text (row 7), which quotes the comments, so an edited earlier comment stops the run as an
 * edited body does: a later edit makes another snapshot, never a
 * change to this one. Not to `updated_at`: GitHub moves it on every new comment (the App's own
 * tracking comment among them), so the runner, which rebuilds the snapshot from the issue as it
 * is when the run starts, could never match a hash that held it.
 *
 * Decisions:
 * - HTML comments and `<details>` blocks (summary included) are removed: a collapsed block is
 *   hidden until clicked, and the command parser skips it too, so neither path reads text a
 *   reader could miss. So are the other elements the command parser counts as hidden
 *   (`<template>`, `<script>`, `<style>`, `<noscript>`, any with a `hidden` attribute), each up
 *   to its matching close tag, nested ones of its name counted, unclosed to the end.
 * - Image alt text, link and image titles and every HTML attribute (`title`, `alt`, `style`,
 *   `hidden`, `data-*`…) are removed; the tag and link targets stay.
 * - Character references (`&#x200B;`, `&lt;`…) are decoded before invisible characters are
 *   removed, so an encoded zero-width or tag character is removed like a raw one.
 * - Zero-width and bidi characters, Unicode tags U+E0000–E007F, variation selectors, other
 *   format characters and C0/C1 controls (but newline and tab) are removed; the text is NFKC
 *   normalised (full-width letters become plain ones) and cleaned again after it.
 */
export interface IssueText {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  /** The issue's `updated_at` at trigger time. */
  readonly updatedAt: string;
  /**
   * People's comments before the trigger, oldest first (bots' and AUREUS's own left out by the
   * caller): sanitised like the body, attributed, and the oldest dropped past the bounds.
   */
  readonly earlier?: readonly EarlierComment[];
  /** The requester's instructions on the trigger comment, when it has any. */
  readonly comments: readonly { readonly author: string; readonly body: string }[];
}

/**
 * A comment the snapshot quotes. `association` is GitHub's `author_association` from the
 * listing, shown as data: the author's permission is not looked up for each comment, and the
 * model is told nothing more than GitHub said.
 */
export interface EarlierComment {
  readonly author: string;
  readonly association: string;
  readonly body: string;
}

/**
 * Bounds on the earlier comments a snapshot quotes: the newest are kept, the oldest dropped
 * past either one, and the snapshot says how many and why. The title, the body and the
 * trigger's instructions hold the task; a long discussion must not make the model's context, or
 * refuse the run outright, while what is left out is never hidden from the model or the log.
 */
export const MAX_SNAPSHOT_COMMENTS = 20;
export const MAX_SNAPSHOT_COMMENT_BYTES = 32 * 1024;

export type RemovalKind =
  | 'html-comment'
  | 'details-block'
  | 'hidden-element'
  | 'image-alt-text'
  | 'link-title'
  | 'html-attribute'
  | 'zero-width'
  | 'bidi-control'
  | 'tag-character'
  | 'control-character'
  | 'format-character';

export interface Removal {
  readonly kind: RemovalKind;
  readonly count: number;
}

export interface IssueSnapshot {
  readonly text: string;
  /** What was removed, for the run's log; kinds with no removal are left out. */
  readonly removed: readonly Removal[];
  /** sha256 of the raw body at trigger time. */
  readonly bodyHash: string;
  readonly updatedAt: string;
  /**
   * sha256 over the issue number, the body hash, the quoted comments as written and the text:
   * the dispatch input.
   */
  readonly hash: string;
  /** Earlier comments quoted, and the oldest dropped past the bounds. */
  readonly comments: { readonly kept: number; readonly dropped: number };
}

export function issueSnapshot(issue: IssueText): IssueSnapshot {
  const counts = new Map<RemovalKind, number>();
  const clean = (text: string) => visibleMarkdown(text, counts);
  const parts = [`# ${clean(issue.title)}`, '', clean(issue.body)];
  const { kept, dropped } = boundedComments(issue.earlier ?? []);
  if (dropped > 0)
    parts.push(
      '',
      `(${dropped} earlier comment${dropped === 1 ? ' is' : 's are'} left out: the snapshot keeps the newest ${MAX_SNAPSHOT_COMMENTS} comments and ${MAX_SNAPSHOT_COMMENT_BYTES / 1024} KiB of them.)`,
    );
  for (const comment of kept)
    parts.push(
      '',
      `## Comment by @${clean(comment.author)} (author association: ${clean(comment.association)})`,
      '',
      clean(comment.body),
    );
  for (const comment of issue.comments)
    parts.push('', `## Comment by ${clean(comment.author)}`, '', clean(comment.body));
  const text = parts.join('\n');
  const bodyHash = sha256(issue.body);
  // The quoted comments' raw bodies too, as the body's: a hidden edit of one stops the run.
  const commentsHash = sha256(JSON.stringify(kept));
  const hash = sha256(JSON.stringify({ number: issue.number, bodyHash, commentsHash, text }));
  const removed = [...counts].map(([kind, count]) => ({ kind, count }));
  return {
    text,
    removed,
    bodyHash,
    updatedAt: issue.updatedAt,
    hash,
    comments: { kept: kept.length, dropped },
  };
}

/** The newest comments within both bounds, oldest first; a comment is kept whole or not at all. */
function boundedComments(earlier: readonly EarlierComment[]): {
  kept: EarlierComment[];
  dropped: number;
} {
  const kept: EarlierComment[] = [];
  let bytes = 0;
  for (let index = earlier.length - 1; index >= 0; index--) {
    const comment = earlier[index];
    if (comment === undefined || kept.length >= MAX_SNAPSHOT_COMMENTS) break;
    bytes += Buffer.byteLength(comment.body, 'utf8');
    if (bytes > MAX_SNAPSHOT_COMMENT_BYTES) break;
    kept.unshift(comment);
  }
  return { kept, dropped: earlier.length - kept.length };
}

type Counts = Map<RemovalKind, number>;

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A tag, its attributes read with their quotes: `title=">"` does not end it. */
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:"[^"]*"|'[^']*'|[^<>"'])*)>/g;
/** `![alt](target "title")`: the alt text and the title go. */
const IMAGE = /!\[([^\]]*)\]\(\s*(<[^>]*>|[^\s)]*)(\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
/** `[text](target "title")`: the title goes. */
const LINK_TITLE = /(\]\(\s*(?:<[^>]*>|[^\s)]*))\s+(?:"[^"]*"|'[^']*'|\([^)]*\))\s*\)/g;
/** `[label]: target "title"` reference definitions. */
const DEFINITION_TITLE = /^( {0,3}\[[^\]]+\]:\s*\S+)\s+(?:"[^"]*"|'[^']*'|\([^)]*\))\s*$/gm;
const TAG_WITH_ATTRIBUTES = /<([A-Za-z][A-Za-z0-9-]*)(\s(?:"[^"]*"|'[^']*'|[^<>"'])*?)?(\/?)>/g;

const INVISIBLE: readonly (readonly [RemovalKind, RegExp])[] = [
  ['tag-character', /[\u{E0000}-\u{E007F}]/gu],
  ['bidi-control', /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu],
  ['zero-width', /[\u200B-\u200D\u2060\uFEFF]/gu],
  ['control-character', /(?![\n\t])\p{Cc}/gu],
  [
    'format-character',
    /[\p{Cf}\p{Cs}\u2028\u2029\u115F\u1160\u3164\uFFA0\p{Variation_Selector}]/gu,
  ],
];

function visibleMarkdown(raw: string, counts: Counts): string {
  let text = raw.replace(/\r\n?/g, '\n');
  text = removeAll(text, HTML_COMMENT, 'html-comment', counts, () => '');
  text = removeHidingElements(text, counts);
  text = text.replace(IMAGE, (_whole, alt: string, target: string, title?: string) => {
    if (alt.trim() !== '') bump(counts, 'image-alt-text');
    if (title !== undefined) bump(counts, 'link-title');
    return `![](${target})`;
  });
  text = removeAll(text, LINK_TITLE, 'link-title', counts, (head) => `${head})`);
  text = removeAll(text, DEFINITION_TITLE, 'link-title', counts, (head) => head);
  text = text.replace(
    TAG_WITH_ATTRIBUTES,
    (whole, name: string, attributes?: string, slash = '') => {
      if (attributes === undefined || attributes.trim() === '') return whole;
      bump(counts, 'html-attribute');
      return `<${name}${slash}>`;
    },
  );
  text = decodeEntities(text);
  text = removeInvisible(text, counts).normalize('NFKC');
  return removeInvisible(text, counts).trim();
}

/**
 * Removes every element a reader never sees, from its open tag to its matching close tag: the
 * first close tag would leave what follows an inner element of the same name (a `<details>`
 * nested in another) in the text while the outer one still hides it.
 */
function removeHidingElements(text: string, counts: Counts): string {
  let kept = '';
  let from = 0;
  let open: { readonly name: string; depth: number } | undefined;
  for (const tag of text.matchAll(TAG)) {
    const [whole, slash, rawName = '', attributes = ''] = tag;
    const name = rawName.toLowerCase();
    const closing = slash === '/';
    const selfClosing = attributes.trimEnd().endsWith('/');
    if (open === undefined) {
      if (closing || selfClosing) continue;
      if (!HIDING_ELEMENTS.has(name) && !HIDDEN_ATTRIBUTE.test(attributes)) continue;
      kept += text.slice(from, tag.index);
      open = { name, depth: 1 };
      bump(counts, name === 'details' ? 'details-block' : 'hidden-element');
      continue;
    }
    if (name !== open.name || selfClosing) continue;
    open.depth += closing ? -1 : 1;
    if (open.depth === 0) {
      open = undefined;
      from = tag.index + whole.length;
    }
  }
  return open === undefined ? kept + text.slice(from) : kept;
}

function removeAll(
  text: string,
  pattern: RegExp,
  kind: RemovalKind,
  counts: Counts,
  replacement: (head: string) => string,
): string {
  return text.replace(pattern, (_whole, head?: string) => {
    bump(counts, kind);
    return replacement(head ?? '');
  });
}

function removeInvisible(text: string, counts: Counts): string {
  let result = text;
  for (const [kind, pattern] of INVISIBLE)
    result = result.replace(pattern, () => {
      bump(counts, kind);
      return '';
    });
  return result;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
  shy: '\u00AD',
  zwsp: '\u200B',
  zwj: '\u200D',
  zwnj: '\u200C',
  lrm: '\u200E',
  rlm: '\u200F',
};

/** Numeric references and the named ones that matter here; an unknown name stays as written. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#[xX]([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([A-Za-z]+));/g,
    (whole, hex, dec, name) => {
      if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
      const point = Number.parseInt(hex ?? dec, hex === undefined ? 10 : 16);
      return point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)
        ? '\uFFFD'
        : String.fromCodePoint(point);
    },
  );
}

function bump(counts: Counts, kind: RemovalKind): void {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
