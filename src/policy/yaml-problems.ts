import {
  Composer,
  type CST,
  type Document,
  isPair,
  isScalar,
  isSeq,
  type LineCounter,
  type Scalar,
  visit,
  type YAMLError,
} from 'yaml';
import type { PolicyProblem } from './policy-problem.js';
import { policySchema } from './policy-schema.generated.js';
import { fitsSchemaKind, schemaAt } from './schema-node.js';

/** How to fix each kind of YAML error the parser reports, by its error code. */
const HINTS: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: 'keep only one entry with this key in this mapping.',
  TAB_AS_INDENT: 'indent with spaces; YAML does not allow tabs for indentation.',
  BAD_INDENT:
    'align keys of the same mapping at the same column, indenting nested keys with spaces.',
  MISSING_CHAR:
    'add the missing closing character (a quote or bracket) on the value that opens it.',
  MULTIPLE_DOCS:
    'keep a single YAML document: remove the "---" separator and merge what follows it.',
  BAD_DQ_ESCAPE: 'fix the escape sequence inside the double-quoted text, or use single quotes.',
  MULTILINE_IMPLICIT_KEY: 'write each key on a single line, followed by ": ".',
  BLOCK_AS_IMPLICIT_KEY:
    'put a space after the colon and the value on the same line, or indent the nested keys below it.',
  KEY_OVER_1024_CHARS: 'shorten the key; policy keys are short names such as budgets.',
  NON_STRING_KEY: 'use plain names as keys, not lists or mappings.',
  UNEXPECTED_TOKEN: 'check the punctuation around this place: a stray character or a missing ": ".',
};

const DEFAULT_HINT = 'fix the YAML syntax at this place.';

/** Syntax errors and warnings of a parsed policy, as problems with positions and hints. */
export function yamlProblems(
  errors: readonly YAMLError[],
  text: string,
  lineCounter: LineCounter,
  file: string,
): PolicyProblem[] {
  return errors.map((error) => {
    const { line, col } = lineCounter.linePos(errorOffset(error, text));
    return {
      file,
      line,
      column: col,
      message: isUnclosedQuote(error)
        ? 'the quoted value that starts here is never closed.'
        : sentence(error.message),
      hint: HINTS[error.code] ?? DEFAULT_HINT,
    };
  });
}

/**
 * The parser notices an unclosed quote only at the end of the file; the place to fix is the
 * opening quote, the last one of its kind before that point.
 */
function errorOffset(error: YAMLError, text: string): number {
  const [offset] = error.pos;
  const quote = isUnclosedQuote(error) ? /closing (["'])/.exec(error.message)?.[1] : undefined;
  if (quote === undefined) return offset;
  const opening = text.lastIndexOf(quote, Math.max(0, offset - 1));
  return opening === -1 ? offset : opening;
}

function isUnclosedQuote(error: YAMLError): boolean {
  return error.code === 'MISSING_CHAR' && /closing ["']/.test(error.message);
}

/** The parser's messages sometimes carry advice for programmers ("; please use …"); keep the fact. */
function sentence(message: string): string {
  const fact = (message.split(/;\s/)[0] ?? message).trim();
  const lowered = fact.charAt(0).toLowerCase() + fact.slice(1);
  return /[.!?]$/.test(lowered) ? lowered : `${lowered}.`;
}

type Explanation = Pick<PolicyProblem, 'message' | 'hint'>;

/** Long enough for any real value; a hostile one is cut so it cannot flood the output. */
const SHOWN_LENGTH = 60;

/**
 * Values that do not mean what they say, each at its place:
 * - numbers JavaScript cannot hold as written: NaN and infinities (`.nan`, `.inf`, `1e400`),
 *   magnitudes past 2^53 − 1 (rounded: 9007199254740993 reads as 9007199254740992), and -0;
 * - plain values YAML 1.1 reads otherwise than YAML 1.2, where both readings would be accepted
 *   at that place (`017`: 17, or octal 15). The policy is read as YAML 1.2 whatever a `%YAML`
 *   line says. Where only one reading fits, the value is unambiguous: `severity: off` can only
 *   be the text (false is no severity), and `enabled: yes` is the text "yes", which the schema
 *   then refuses as not true or false.
 * Keys are left out: every key of a policy is a fixed name the schema knows, so a key YAML 1.1
 * would read otherwise (`on`, `yes`, `<<`) is an unknown key already.
 */
export function yamlScalarProblems(
  document: Document,
  tokens: readonly CST.Token[],
  lineCounter: LineCounter,
  file: string,
): PolicyProblem[] {
  const yaml11 = valueScalars(readAsYaml11(tokens));
  const problems: PolicyProblem[] = [];
  for (const [offset, { scalar, path }] of valueScalars(document)) {
    const source = shown(scalar.source ?? String(scalar.value));
    const expected = schemaAt(policySchema, path);
    const readings = [scalar.value, yaml11.get(offset)?.scalar.value];
    const ambiguous =
      expected !== undefined &&
      readings.every((value) => fitsSchemaKind(policySchema, expected, value));
    const found =
      numberProblem(scalar.value, source) ??
      (ambiguous ? versionProblem(source, scalar.value, readings[1]) : undefined);
    if (found === undefined) continue;
    const { line, col } = lineCounter.linePos(offset);
    problems.push({ file, line, column: col, ...found });
  }
  return problems;
}

function numberProblem(value: unknown, source: string): Explanation | undefined {
  if (typeof value !== 'number') return undefined;
  if (!Number.isFinite(value)) {
    return {
      message: `${source} is not a finite number (YAML reads it as ${value}).`,
      hint: 'write a plain number, for example 25.',
    };
  }
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    return {
      message: `${source} is too large to be read exactly: numbers beyond ±${Number.MAX_SAFE_INTEGER} (2^53 − 1) are rounded, and this one would read as ${shown(String(value))}.`,
      hint: 'write a smaller number; no policy setting needs one this large.',
    };
  }
  if (Object.is(value, -0)) return { message: `${source} is a negative zero.`, hint: 'write 0.' };
  return undefined;
}

function versionProblem(source: string, yaml12: unknown, yaml11: unknown): Explanation | undefined {
  if (yaml11 === undefined || sameReading(yaml12, yaml11)) return undefined;
  const spellings = [...new Set([spelling(yaml12), spelling(yaml11)])].filter(
    (written) => written !== undefined,
  );
  return {
    message: `${source} reads as ${reading(yaml12)} in YAML 1.2, the version AUREUS reads, but as ${reading(yaml11)} in YAML 1.1, which other tools may read.`,
    hint:
      spellings.length > 1
        ? `write ${spellings.join(' or ')}, whichever is meant.`
        : `write ${spellings[0] ?? 'the value in quotes'}.`,
  };
}

/**
 * Scalars in value position (not keys), by the offset where each starts, with the path of
 * settings that leads to them (any list item is "0": the schema describes all items alike).
 */
function valueScalars(
  document: Document | undefined,
): Map<number, { scalar: Scalar; path: string[] }> {
  const found = new Map<number, { scalar: Scalar; path: string[] }>();
  if (document === undefined) return found;
  visit(document, {
    Scalar(key, node, ancestors) {
      const offset = node.range?.[0];
      if (key === 'key' || offset === undefined) return;
      const path = ancestors.flatMap((ancestor) => {
        if (isSeq(ancestor)) return ['0'];
        return isPair(ancestor) && isScalar(ancestor.key) ? [String(ancestor.key.value)] : [];
      });
      found.set(offset, { scalar: node, path });
    },
  });
  return found;
}

/** The same tokens composed with YAML 1.1's schema: every scalar keeps its offset. */
function readAsYaml11(tokens: readonly CST.Token[]): Document | undefined {
  const [document] = new Composer({ schema: 'yaml-1.1' }).compose(tokens, true);
  return document;
}

function sameReading(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());
}

function reading(value: unknown): string {
  if (typeof value === 'string') return `the text ${JSON.stringify(shown(value))}`;
  if (value instanceof Date) return `the date ${value.toISOString()}`;
  if (value === null || value === undefined) return 'empty';
  return shown(String(value));
}

/** How to write `value` so that both versions read it alike; none for what a policy never holds. */
function spelling(value: unknown): string | undefined {
  if (typeof value === 'string') return JSON.stringify(shown(value));
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function shown(text: string): string {
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 3)}...` : text;
}

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
