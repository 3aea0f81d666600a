import type { Node, Project, SourceFile } from 'ts-morph';

/**
 * Edits as text, shared by the passes that point references at another declaration
 * (single-implementation, pass-through-wrapper). Each replaces the file's whole text, so every
 * node of that file is forgotten: callers find nodes again after each edit.
 */

/**
 * Removes a top-level statement with its JSDoc, as whole lines, and one of the blank lines that
 * surrounded it: ts-morph's own removal sometimes leaves a blank line where there was none.
 */
export function removeStatement(statement: Node): void {
  const file = statement.getSourceFile();
  const text = file.getFullText();
  const start = statement.getStart(true);
  const startOfLine = lineStart(text, start);
  const from = /^[ \t]*$/.test(text.slice(startOfLine, start)) ? startOfLine : start;
  const end = statement.getEnd();
  let to = end + (/^[ \t]*\r?\n/.exec(text.slice(end))?.[0].length ?? 0);
  if (text.slice(to).trim() === '') {
    const head = text.slice(0, from).trimEnd();
    replaceRange(file, head.length, text.length, head === '' ? '' : '\n');
    return;
  }
  if (from === 0 || /\n[ \t]*\r?\n$/.test(text.slice(0, from)))
    to += /^(?:[ \t]*\r?\n)*/.exec(text.slice(to))?.[0].length ?? 0;
  replaceRange(file, from, to, '');
}

/**
 * Edits a file as text. The whole text is replaced: ts-morph's in-place `replaceText` refuses
 * edits that change the tree's shape. Every node of the file is forgotten: callers find again.
 */
export function replaceRange(file: SourceFile, from: number, to: number, text: string): void {
  const old = file.getFullText();
  file.replaceWithText(`${old.slice(0, from)}${text}${old.slice(to)}`);
}

export function lineStart(text: string, position: number): number {
  return text.lastIndexOf('\n', position - 1) + 1;
}

/**
 * Replaces the identifier `from` by `to` at each start position, file by file, as text: the
 * positions were found on the very same text, and text edits leave no stale node behind.
 */
export function renameAt(
  project: Project,
  positions: ReadonlyMap<string, readonly number[]>,
  from: string,
  to: string,
): void {
  for (const [path, starts] of positions) {
    const file = project.getSourceFileOrThrow(path);
    let text = file.getFullText();
    for (const start of [...starts].sort((a, b) => b - a)) {
      if (text.slice(start, start + from.length) !== from)
        throw new Error(`expected ${from} at ${path}:${start}`);
      text = `${text.slice(0, start)}${to}${text.slice(start + from.length)}`;
    }
    file.replaceWithText(text);
  }
}
