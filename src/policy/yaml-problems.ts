import type { LineCounter, YAMLError } from 'yaml';
import type { PolicyProblem } from './policy-problem.js';

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
