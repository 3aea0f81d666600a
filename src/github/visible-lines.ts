/**
 * The lines of a Markdown comment that a reader sees as text of the comment's own, each from
 * its start: what is left once quotes, code and hidden markup are taken out. Hand-written, not a
 * Markdown parser: none is installed, and a CommonMark parser would not answer the question
 * anyway, since it leaves raw HTML as opaque blocks (a `<details>` whose content follows a blank
 * line comes out as three unrelated blocks), so the element tracking below would be needed on
 * top of it. Where GitHub's rendering is hard to tell, a line is taken as not visible: at worst a
 * command is not run, never one a reader did not see.
 *
 * Not visible:
 * - quotes (`> …`) and their lazy continuation lines;
 * - fenced code blocks (``` and ~~~, unclosed to the end); indented code is the caller's rule;
 * - HTML comments, and every line that touches one;
 * - elements whose content is collapsed or never shown: `<details>` (open or not), `<template>`,
 *   `<script>`, `<style>`, `<noscript>`, and any element with a `hidden` attribute, up to their
 *   matching close tag (nested ones counted; unclosed to the end), and the lines of their tags;
 * - code spans, which may run over several lines of a paragraph; an unmatched backtick hides
 *   the rest of its paragraph (CommonMark would show it as a backtick).
 */
export function* visibleLines(lines: Iterable<string>): Generator<string> {
  const state: ScanState = {
    fence: undefined,
    inHtmlComment: false,
    quoteContinues: false,
    codeSpan: undefined,
    hidden: undefined,
  };
  for (const line of lines) if (isVisible(line, state)) yield line;
}

interface Fence {
  readonly char: string;
  readonly length: number;
}

interface ScanState {
  fence: Fence | undefined;
  inHtmlComment: boolean;
  /** The previous line was quoted paragraph text: an unmarked line right after it is quoted too. */
  quoteContinues: boolean;
  /** The length of the backtick run that opened a code span still open, in this paragraph. */
  codeSpan: number | undefined;
  /** The hiding element open, by tag name, and how many of that name are open inside it. */
  hidden: { readonly name: string; depth: number } | undefined;
}

/** Elements whose content a reader never sees (collapsed or not rendered); the snapshot's too. */
export const HIDING_ELEMENTS: ReadonlySet<string> = new Set([
  'details',
  'template',
  'script',
  'style',
  'noscript',
]);
const FENCE_OPEN = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;
const QUOTE = /^ {0,3}>/;
const BLANK = /^[ \t]*$/;
/** What can change the state inside a line: a comment's start, a backtick run, a tag's start. */
const MARKUP = /<!--|`+|<(\/?)([A-Za-z][A-Za-z0-9-]*)/g;
export const HIDDEN_ATTRIBUTE = /(?:^|\s)hidden(?:[\s=/]|$)/i;

/** Whether `line` shows from its start as the comment's own text; advances `state`. */
function isVisible(line: string, state: ScanState): boolean {
  if (state.fence !== undefined) {
    if (closesFence(line, state.fence)) state.fence = undefined;
    return false;
  }
  const inMarkup = state.inHtmlComment || state.hidden !== undefined;
  if (!inMarkup) {
    const fence = FENCE_OPEN.exec(line)?.[1];
    if (fence !== undefined) {
      state.fence = { char: fence.charAt(0), length: fence.length };
      state.quoteContinues = false;
      state.codeSpan = undefined;
      return false;
    }
    if (QUOTE.test(line)) {
      state.quoteContinues = !BLANK.test(line.replace(/^[ \t>]*/, ''));
      state.codeSpan = undefined;
      return false;
    }
  }
  if (BLANK.test(line)) {
    // A blank line ends the paragraph, and with it a quote's continuation and any code span.
    state.quoteContinues = false;
    state.codeSpan = undefined;
    return false;
  }
  const startsVisible = !inMarkup && state.codeSpan === undefined && !state.quoteContinues;
  const touchesHiddenMarkup = scanMarkup(line, state);
  return startsVisible && !touchesHiddenMarkup;
}

/**
 * Follows comments, code spans and hiding elements through `line`, left to right; whether the
 * line touches an HTML comment or the tag of a hiding element.
 */
function scanMarkup(line: string, state: ScanState): boolean {
  let touches = false;
  let at = 0;
  while (at < line.length) {
    if (state.inHtmlComment) {
      const end = line.indexOf('-->', at);
      if (end < 0) return true;
      state.inHtmlComment = false;
      at = end + 3;
      continue;
    }
    MARKUP.lastIndex = at;
    const found = MARKUP.exec(line);
    if (found === null) return touches;
    const [token, slash, tagName] = found;
    at = found.index + token.length;
    if (state.codeSpan !== undefined) {
      // Inside a code span only a backtick run of the same length means anything: it closes it.
      if (token.length === state.codeSpan && token.startsWith('`')) state.codeSpan = undefined;
    } else if (token === '<!--') {
      state.inHtmlComment = true;
      touches = true;
    } else if (token.startsWith('`')) {
      state.codeSpan = token.length;
    } else if (tagName !== undefined) {
      const close = line.indexOf('>', at);
      const attributes = line.slice(at, close < 0 ? line.length : close);
      at = close < 0 ? line.length : close + 1;
      touches = followTag(tagName.toLowerCase(), slash === '/', attributes, state) || touches;
    }
  }
  return touches;
}

/** Opens or closes a hiding element at a tag; whether the tag is one of a hiding element. */
function followTag(name: string, closing: boolean, attributes: string, state: ScanState): boolean {
  const selfClosing = attributes.trimEnd().endsWith('/');
  const hidden = state.hidden;
  if (hidden !== undefined) {
    if (name !== hidden.name) return false;
    if (closing) hidden.depth -= 1;
    else if (!selfClosing) hidden.depth += 1;
    if (hidden.depth === 0) state.hidden = undefined;
    return true;
  }
  if (closing || selfClosing) return false;
  if (!HIDING_ELEMENTS.has(name) && !HIDDEN_ATTRIBUTE.test(attributes)) return false;
  state.hidden = { name, depth: 1 };
  return true;
}

function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line)?.[1];
  return match !== undefined && match.charAt(0) === fence.char && match.length >= fence.length;
}
