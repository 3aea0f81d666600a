import { FactsCollector } from '../analysis/tree-sitter/facts-collector.js';
import type { FileFacts, Language } from '../model/facts.js';

/**
 * How deep a TS/JS file nests, read without a parser, so that a file too deep to parse is
 * refused before one runs. oxc parses by recursion on the native stack: 15,000-odd nested
 * brackets, or 20,000-odd chained `a ? b :` or `if (a)`, overflow it (half as many on a worker
 * thread's smaller stack), and that is a segmentation fault no `catch` sees: one file in a pull
 * request would end the process that checks it (the App's too). TypeScript's parser and the
 * walks over a tree recurse too, and throw a RangeError far earlier.
 *
 * The measure is an upper estimate of the tree's depth: every open bracket, brace, parenthesis
 * and template `${` (each its own frame), plus, inside a frame, every operator and nesting
 * keyword (`?`, `=`, `=>`, `**`, `.`, `new`, `if`, `else`, …) since the last `,`, `;` or a line
 * break that ends a statement, since those nest without brackets (`a ? b : c ? …`, `x = y = …`,
 * `if (a) if (b) …`). Strings, comments, regular expressions, template text and JSX text are
 * skipped as a lexer skips them; a quote or `/` that does not end on its line is taken as a plain
 * character, so a stray quote in JSX text cannot hide what follows it.
 */
export const MAX_NESTING = 1000;

/** Where the file first nests deeper than MAX_NESTING (an offset), or null when it never does. */
export function tooDeepAt(text: string, jsx: boolean): number | null {
  return new NestingScan(text, jsx).run();
}

/** The diagnostic a too-deep file is reported with (as a syntax error, unparsable_file). */
export const TOO_DEEP_MESSAGE = `nested more than ${MAX_NESTING.toLocaleString('en-US')} levels deep (brackets, blocks, chained operators), past the depth AUREUS parses: split it into smaller parts`;

type Mode = 'code' | 'template' | 'jsx-tag' | 'jsx-text';

interface Frame {
  readonly mode: Mode;
  /** The closing character that ends the frame (`)`, `]`, `}`, `>` of a JSX tag, `` ` ``). */
  readonly closer: string;
  /** Operators and nesting keywords since the frame's last statement or list boundary. */
  chain: number;
  /** An `if (`/`for (`/`while (`/`with (` header: a statement follows its `)`. */
  readonly header: boolean;
}

const OPENERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
const NESTING_WORDS = new Set([
  'if',
  'else',
  'for',
  'while',
  'do',
  'with',
  'new',
  'typeof',
  'void',
  'delete',
  'await',
  'yield',
  'keyof',
  'return',
  'throw',
  'in',
  'of',
  'instanceof',
  'extends',
]);
const HEADER_WORDS = new Set(['if', 'for', 'while', 'with', 'switch', 'catch']);
const WORD = /[\p{ID_Continue}$\u200c\u200d]/u;
const OPERATOR = /[=?:!<>+\-*%&|^~.@]/;
/** ASCII characters by class (the scan reads every character: a table, not a regex, decides). */
const SPACE = 1;
const WORD_CHAR = 2;
const OPERATOR_CHAR = 3;
const ASCII = new Uint8Array(128).map((_, code) => {
  const c = String.fromCharCode(code);
  if (c !== '\n' && c !== '\r' && /\s/.test(c)) return SPACE;
  if (WORD.test(c)) return WORD_CHAR;
  return OPERATOR.test(c) ? OPERATOR_CHAR : 0;
});

function classOf(c: string): number {
  const code = c.charCodeAt(0);
  if (code < 128) return ASCII[code] ?? 0;
  if (/\s/.test(c) && c !== '\u2028' && c !== '\u2029') return SPACE;
  return WORD.test(c) ? WORD_CHAR : 0;
}

class NestingScan {
  private readonly stack: Frame[] = [{ mode: 'code', closer: '', chain: 0, header: false }];
  private at = 0;
  /** What the last code token was: an operand (a name, a literal, a closer) or not. */
  private last: 'operand' | 'operator' | 'header-end' | 'word' = 'operator';
  private lastWord = '';
  /** Frames plus the chains inside them. */
  private depth = 1;

  constructor(
    private readonly text: string,
    private readonly jsx: boolean,
  ) {}

  run(): number | null {
    const { text } = this;
    while (this.at < text.length) {
      const frame = this.top();
      const before = this.at;
      if (frame.mode === 'template') this.templateText();
      else if (frame.mode === 'jsx-text') this.jsxText();
      else if (frame.mode === 'jsx-tag') this.jsxTag(frame);
      else this.code(frame);
      if (this.depth > MAX_NESTING) return before;
      if (this.at === before) this.at += 1;
    }
    return null;
  }

  private top(): Frame {
    return this.stack.at(-1) ?? { mode: 'code', closer: '', chain: 0, header: false };
  }

  private push(mode: Mode, closer: string, header = false): void {
    this.stack.push({ mode, closer, chain: 0, header });
    this.depth += 1;
  }

  private pop(): Frame | undefined {
    if (this.stack.length <= 1) return undefined;
    const frame = this.stack.pop();
    if (frame !== undefined) this.depth -= 1 + frame.chain;
    return frame;
  }

  private chain(frame: Frame): void {
    frame.chain += 1;
    this.depth += 1;
  }

  private endChain(frame: Frame): void {
    this.depth -= frame.chain;
    frame.chain = 0;
  }

  private code(frame: Frame): void {
    const { text } = this;
    const c = text.charAt(this.at);
    const kind = classOf(c);
    if (kind === SPACE) {
      this.at += 1;
      return;
    }
    const next = text.charAt(this.at + 1);
    if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') {
      // A line break after an operand ends a statement unless the next line goes on with an
      // operator; after an operator or a statement's header it never does.
      if (this.last === 'operand' && !OPERATOR.test(this.nextCodeChar())) this.endChain(frame);
      this.at += 1;
    } else if (c === '/' && next === '/') this.skipTo('\n');
    else if (c === '/' && next === '*') this.skipPast('*/');
    else if (c === "'" || c === '"') this.quoted(c);
    else if (c === '`') {
      this.push('template', '`');
      this.at += 1;
    } else if (c === '/' && this.regexAllowed()) this.regex();
    else if (c in OPENERS) {
      this.push('code', OPENERS[c] ?? '', c === '(' && HEADER_WORDS.has(this.lastWord));
      this.at += 1;
      this.last = 'operator';
      this.lastWord = '';
    } else if (c === ')' || c === ']' || c === '}') this.close(c);
    else if (c === ',' || c === ';') {
      this.endChain(frame);
      this.at += 1;
      this.last = 'operator';
    } else if (c === '<' && this.jsx && this.last !== 'operand' && /[\p{L}>_$]/u.test(next)) {
      this.push('jsx-tag', '>');
      this.at += 1;
    } else if (kind === WORD_CHAR) this.word(frame);
    else {
      if (kind === OPERATOR_CHAR) this.chain(frame);
      this.at += 1;
      this.last = 'operator';
      this.lastWord = '';
    }
  }

  private word(frame: Frame): void {
    const start = this.at;
    while (this.at < this.text.length && classOf(this.text.charAt(this.at)) === WORD_CHAR) {
      this.at += 1;
    }
    const word = this.text.slice(start, this.at);
    this.lastWord = word;
    if (NESTING_WORDS.has(word)) {
      this.chain(frame);
      this.last = 'word';
    } else this.last = 'operand';
  }

  private close(c: string): void {
    const frame = this.top();
    // A closer of another kind than the frame's (a stray one) is left alone.
    if (frame.closer === c) this.pop();
    this.at += 1;
    this.last = frame.header ? 'header-end' : 'operand';
    this.lastWord = '';
  }

  /** A `/` begins a regular expression where an operand may start. */
  private regexAllowed(): boolean {
    return this.last !== 'operand';
  }

  private regex(): void {
    const { text } = this;
    let at = this.at + 1;
    let inClass = false;
    for (; at < text.length; at++) {
      const c = text.charAt(at);
      if (c === '\n' || c === '\r') break;
      if (c === '\\') at += 1;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) {
        this.at = at + 1;
        this.last = 'operand';
        return;
      }
    }
    // Unterminated on its line: a division after all.
    this.at += 1;
    this.last = 'operator';
  }

  private quoted(quote: string): void {
    const { text } = this;
    for (let at = this.at + 1; at < text.length; at++) {
      const c = text.charAt(at);
      if (c === '\\') at += 1;
      else if (c === quote) {
        this.at = at + 1;
        this.last = 'operand';
        return;
      } else if (c === '\n' || c === '\r') break;
    }
    // Unterminated on its line: a plain character (an apostrophe in JSX text), not a string.
    this.at += 1;
  }

  private templateText(): void {
    const { text } = this;
    const c = text.charAt(this.at);
    if (c === '\\') this.at += 2;
    else if (c === '`') {
      this.pop();
      this.at += 1;
      this.last = 'operand';
    } else if (c === '$' && text.charAt(this.at + 1) === '{') {
      this.push('code', '}');
      this.at += 2;
      this.last = 'operator';
    } else this.at += 1;
  }

  /**
   * Inside `<Tag …>` (closer `>`) or `</Tag>` (closer `</`): attribute strings and `{…}`;
   * `>` opens the children, `/>` ends the element, a closing tag's `>` ends its children too.
   */
  private jsxTag(frame: Frame): void {
    const c = this.text.charAt(this.at);
    if (c === "'" || c === '"') this.quoted(c);
    else if (c === '{') {
      this.push('code', '}');
      this.at += 1;
      this.last = 'operator';
    } else if (c === '/' && frame.closer === '>' && this.text.charAt(this.at + 1) === '>') {
      this.pop();
      this.at += 2;
      this.last = 'operand';
    } else if (c === '>') {
      this.pop();
      if (frame.closer === '</' && this.top().mode === 'jsx-text') this.pop();
      else if (frame.closer !== '</') this.push('jsx-text', '');
      this.at += 1;
      this.last = 'operand';
    } else this.at += 1;
  }

  /** Children of an element: text, `{…}` code, and tags. */
  private jsxText(): void {
    const c = this.text.charAt(this.at);
    if (c === '{') {
      this.push('code', '}');
      this.last = 'operator';
    } else if (c === '<') {
      this.push('jsx-tag', this.text.charAt(this.at + 1) === '/' ? '</' : '>');
    }
    this.at += 1;
  }

  private nextCodeChar(): string {
    let at = this.at + 1;
    while (at < this.text.length && /\s/.test(this.text.charAt(at))) at += 1;
    return this.text.charAt(at);
  }

  private skipTo(end: string): void {
    const found = this.text.indexOf(end, this.at);
    this.at = found === -1 ? this.text.length : found;
  }

  private skipPast(end: string): void {
    const found = this.text.indexOf(end, this.at + 2);
    this.at = found === -1 ? this.text.length : found + end.length;
  }
}

/**
 * The facts of a file AUREUS would not or could not read to the end: its lines, and one syntax
 * error at `at` that says why (so unparsable_file reports it and the check is never a pass).
 */
export function unreadFacts(language: Language, text: string, at: number, why: string): FileFacts {
  const collector = new FactsCollector(text, language);
  collector.diagnostic({ message: why, at });
  return collector.finish();
}

/**
 * A parser or a walk over its tree that ran out of stack (a RangeError: JavaScript's recursion,
 * or WebAssembly's) on a file nested past what the scan above sees: that file's finding, never
 * an internal error that ends the whole check.
 */
export function outOfStackFacts(language: Language, text: string, error: RangeError): FileFacts {
  return unreadFacts(
    language,
    text,
    0,
    `nested too deeply to read to the end (${error.message}): split the expression or the data into smaller parts`,
  );
}
