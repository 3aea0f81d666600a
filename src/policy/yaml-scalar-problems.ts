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
} from 'yaml';
import type { PolicyProblem } from './policy-problem.js';
import { policySchema } from './policy-schema.generated.js';
import { fitsSchemaKind, schemaAt } from './schema-node.js';

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
