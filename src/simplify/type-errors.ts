import { type SourceFile, ts } from 'ts-morph';

/**
 * Type errors by file, each as `code message` (no position: an error that only moved is the same
 * error). Counted, so that a patch adding a second copy of an existing error is caught.
 */
export type TypeErrorCounts = ReadonlyMap<string, number>;

/**
 * The type errors of files of the project as it stands, each file checked once per run: every
 * proposal's check starts from the same untouched project (its edits are undone after), so the
 * files it reaches need not be checked again before each one.
 */
export type TypeErrorBaseline = (files: readonly SourceFile[]) => TypeErrorCounts;

export function createTypeErrorBaseline(): TypeErrorBaseline {
  const byPath = new Map<string, TypeErrorCounts>();
  return (files) => {
    const counts = new Map<string, number>();
    for (const file of files) {
      const path = file.getFilePath();
      const known = byPath.get(path) ?? typeErrorsOf([file]);
      byPath.set(path, known);
      for (const [key, count] of known) counts.set(key, (counts.get(key) ?? 0) + count);
    }
    return counts;
  };
}

export function typeErrorsOf(files: readonly SourceFile[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of files) {
    for (const diagnostic of file.getPreEmitDiagnostics()) {
      if (diagnostic.getCategory() !== ts.DiagnosticCategory.Error) continue;
      const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ');
      const key = `${file.getFilePath()}: TS${diagnostic.getCode()} ${message}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** Errors in `after` beyond those in `before`. */
export function addedErrors(before: TypeErrorCounts, after: TypeErrorCounts): string[] {
  const added: string[] = [];
  for (const [key, count] of after) if (count > (before.get(key) ?? 0)) added.push(key);
  return added.sort();
}
