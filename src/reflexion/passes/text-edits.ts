import { Node, type Project, type SourceFile, SyntaxKind } from 'ts-morph';

/**
 * Edits as text, shared by the passes that point references at another declaration
 * (single-implementation, pass-through-wrapper) and by early-return's re-indenting. Each
 * replaces the file's whole text, so every node of that file is forgotten: callers find nodes
 * again after each edit.
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

/** A replacement of one span of a file's text. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The whitespace before `node` on its line; undefined when something else precedes it there. */
export function lineIndent(node: Node): string | undefined {
  const text = node.getSourceFile().getFullText();
  const start = node.getStart();
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** Whether text the rewrite drops holds a comment (it holds no string or regex, only tokens). */
export function holdsComment(dropped: string): boolean {
  return /\/[/*]/.test(dropped);
}

/**
 * The text from `first` to `last` moved from `from` indentation to `to`: every line after the
 * first must start with `from` (or be blank). Undefined when one does not, or when a template
 * literal spans lines: re-indenting those lines would change the string.
 */
export function reindented(first: Node, last: Node, from: string, to: string): string | undefined {
  const text = first.getSourceFile().getFullText().slice(first.getStart(), last.getEnd());
  const lines = text.split('\n');
  if (lines.length === 1) return text;
  if (spansLinesInTemplate(first, last)) return;
  const moved: string[] = [lines[0] ?? ''];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') moved.push(line.endsWith('\r') ? '\r' : '');
    else if (line.startsWith(from)) moved.push(to + line.slice(from.length));
    else return;
  }
  return moved.join('\n');
}

function spansLinesInTemplate(first: Node, last: Node): boolean {
  const start = first.getStart();
  const end = last.getEnd();
  const parent = first.getParentOrThrow();
  return parent
    .getDescendants()
    .some(
      (node) =>
        TEMPLATE_PARTS.has(node.getKind()) &&
        node.getStart() >= start &&
        node.getEnd() <= end &&
        node.getText().includes('\n'),
    );
}

const TEMPLATE_PARTS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TemplateHead,
  SyntaxKind.TemplateMiddle,
  SyntaxKind.TemplateTail,
]);

/** The file's line break, to write new lines as the file does. */
export function lineBreak(node: Node): string {
  return node.getSourceFile().getFullText().includes('\r\n') ? '\r\n' : '\n';
}

/** `node`'s text as an operand of `&&`: parenthesised when its own operator binds looser. */
export function andOperand(node: Node): string {
  const text = node.getText();
  if (
    Node.isConditionalExpression(node) ||
    Node.isArrowFunction(node) ||
    Node.isYieldExpression(node)
  )
    return `(${text})`;
  if (!Node.isBinaryExpression(node)) return text;
  const operator = node.getOperatorToken().getKind();
  const looser =
    operator === SyntaxKind.BarBarToken ||
    operator === SyntaxKind.QuestionQuestionToken ||
    operator === SyntaxKind.CommaToken ||
    (operator >= SyntaxKind.FirstAssignment && operator <= SyntaxKind.LastAssignment);
  return looser ? `(${text})` : text;
}
