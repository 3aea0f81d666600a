import type * as ts from 'typescript';
import type { ParseError } from '../tree-sitter/facts-collector.js';
import { typescript } from '../typescript-runtime.js';

/** At most this many syntax errors are reported per file, as for tree-sitter. */
const MAX_DIAGNOSTICS = 20;

/**
 * The syntax errors TypeScript's parser found, at the place each one points to. They live in
 * the source file's `parseDiagnostics`, which the public API only exposes through a Program (a
 * type checker we do not want); the property has held them since TypeScript 1.x, and reading
 * it is checked rather than assumed.
 */
export function parseDiagnostics(file: ts.SourceFile): ParseError[] {
  const found = 'parseDiagnostics' in file ? file.parseDiagnostics : undefined;
  if (!Array.isArray(found)) return [];
  return found
    .filter(isDiagnostic)
    .slice(0, MAX_DIAGNOSTICS)
    .map((diagnostic) => ({
      message: typescript.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
      at: diagnostic.start ?? 0,
    }));
}

function isDiagnostic(value: unknown): value is ts.Diagnostic {
  return typeof value === 'object' && value !== null && 'messageText' in value && 'start' in value;
}
