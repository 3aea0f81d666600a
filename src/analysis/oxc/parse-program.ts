import { type OxcError, type ParserOptions, type Program, parseSync } from 'oxc-parser';
import type { TextRange } from '../tree-sitter/line-index.js';
import { commentsBeyondFatalError, hashbangComment } from './comments.js';

export type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

type Attempt = Readonly<Required<Pick<ParserOptions, 'lang' | 'sourceType'>>>;

const MODULE = 'module';
/** Allows what CommonJS files do and a module may not: a top-level `return`, `await` as a name. */
const COMMON_JS = 'commonjs';

/**
 * The parses tried in turn until one finds no error, the file's own language as a module
 * first (JavaScript files may hold JSX, as tree-sitter's JavaScript grammar allows).
 * TypeScript's parser and tree-sitter accept more than oxc does, leaving it to a type checker
 * to reject; the later attempts accept it too.
 */
const ATTEMPTS: Readonly<Record<ScriptLanguage, readonly [Attempt, ...Attempt[]]>> = {
  typescript: [
    { lang: 'ts', sourceType: MODULE },
    { lang: 'ts', sourceType: COMMON_JS },
    // A declaration file's `export const a: A;`.
    { lang: 'dts', sourceType: MODULE },
  ],
  tsx: [
    { lang: 'tsx', sourceType: MODULE },
    { lang: 'tsx', sourceType: COMMON_JS },
  ],
  javascript: [
    { lang: 'jsx', sourceType: MODULE },
    { lang: 'jsx', sourceType: COMMON_JS },
    // TypeScript syntax in a JavaScript file, which TypeScript's parser reads too: the walk
    // reports it as the TypeScript extractor does.
    { lang: 'tsx', sourceType: MODULE },
    { lang: 'tsx', sourceType: COMMON_JS },
  ],
};

/** At most this many syntax errors are reported per file, as for tree-sitter. */
const MAX_DIAGNOSTICS = 20;

export interface ParsedProgram {
  readonly program: Program;
  /** The comments, a `#!` line among them. */
  readonly comments: readonly TextRange[];
  /** The syntax errors of the first attempt, when no attempt parses without one. */
  readonly errors: readonly OxcError[];
}

/**
 * The tree of the first attempt that parses without an error; else the first attempt's, with
 * its errors and, past a fatal one, the comments further down (see comments.ts).
 */
export function parseProgram(text: string, language: ScriptLanguage): ParsedProgram {
  const [primary, ...fallbacks] = ATTEMPTS[language];
  const first = parse(text, primary);
  if (first.errors.length === 0) return first;
  for (const attempt of fallbacks) {
    const result = parse(text, attempt);
    if (result.errors.length === 0) return result;
  }
  if (first.program.body.length > 0) return first;
  const beyond = commentsBeyondFatalError(text, first.errors, (blanked) => parse(blanked, primary));
  return { ...first, comments: [...first.comments, ...beyond] };
}

function parse(text: string, attempt: Attempt): ParsedProgram {
  // The TS-ESTree shape for every language, so one walk reads them all; parentheses kept,
  // as TypeScript keeps them (`(a.b)()` calls no name).
  const options: ParserOptions = { ...attempt, astType: 'ts', preserveParens: true };
  const result = parseSync(`source.${attempt.lang}`, text, options);
  const hashbang = hashbangComment(text);
  const comments: readonly TextRange[] = result.comments;
  return {
    program: result.program,
    comments: hashbang === null ? comments : [hashbang, ...comments],
    errors: result.errors,
  };
}

/** The syntax errors oxc found, as `line N: message`, at the first place each one points to. */
export function parseDiagnostics(
  errors: readonly OxcError[],
  lineOf: (offset: number) => number,
): string[] {
  return errors
    .slice(0, MAX_DIAGNOSTICS)
    .map((error) => `line ${lineOf(error.labels[0]?.start ?? 0)}: ${error.message}`);
}
