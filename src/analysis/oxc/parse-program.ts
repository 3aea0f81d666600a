import {
  type OxcError,
  type ParserOptions,
  type Program,
  parseSync,
  rawTransferSupported,
} from 'oxc-parser';
import type { ParseError } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import { commentsBeyondFatalError, hashbangComment } from './comments.js';

export type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

type Attempt = Readonly<Required<Pick<ParserOptions, 'lang' | 'sourceType'>>>;

const MODULE = 'module';
/** Allows what CommonJS files do and a module may not: a top-level `return`, `await` as a name. */
const COMMON_JS = 'commonjs';

/**
 * The parses tried in turn until one finds no error, the file's own language as a module
 * first (JavaScript files may hold JSX, as TypeScript's parser allows there). TypeScript's
 * parser accepts more than oxc does, leaving it to a type checker to reject; the later
 * attempts accept it too.
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

/**
 * Where it can (Node ≥ 22 on 64-bit little-endian machines), oxc hands its tree over as raw
 * memory decoded in JavaScript rather than as JSON: the same tree (compared on every TS/JS
 * file of the reference code bases and of this repository), 3–4× faster to get.
 */
const RAW_TRANSFER = rawTransferSupported();

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
  const result = RAW_TRANSFER
    ? parseRaw(`source.${attempt.lang}`, text, options)
    : parseSync(`source.${attempt.lang}`, text, options);
  const hashbang = hashbangComment(text);
  const comments: readonly TextRange[] = result.comments;
  return {
    program: result.program,
    comments: hashbang === null ? comments : [hashbang, ...comments],
    errors: result.errors,
  };
}

/**
 * Raw transfer reserves 6 GiB of address space per thread; where a limit (`ulimit -v`) refuses
 * it, the JSON way gives the same tree. Syntax errors are never thrown: they are in the result.
 */
function parseRaw(
  name: string,
  text: string,
  options: ParserOptions,
): ReturnType<typeof parseSync> {
  try {
    // Not in oxc-parser's declared options, though its parseSync reads it.
    const raw = { ...options, experimentalRawTransfer: true };
    return parseSync(name, text, raw);
  } catch {
    return parseSync(name, text, options);
  }
}

/** The syntax errors oxc found, each at the first place it points to. */
export function parseDiagnostics(errors: readonly OxcError[]): ParseError[] {
  return errors
    .slice(0, MAX_DIAGNOSTICS)
    .map((error) => ({ message: error.message, at: error.labels[0]?.start ?? 0 }));
}
