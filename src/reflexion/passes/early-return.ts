import { type IfStatement, Node, type SourceFile, SyntaxKind, ts } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { rewrite } from './early-return-rewrites.js';
import type { TextEdit } from './text-edits.js';

/** A function to flatten, as plain data: nodes go stale once a proposal has been captured. */
interface Target {
  readonly filePath: string;
  /** Where the function starts and what it is: edits inside it never move its start. */
  readonly start: number;
  readonly kind: SyntaxKind;
  readonly name: string | undefined;
  readonly line: number;
}

/** Rewrites apply one after the other; each removes syntax, so this bound is never reached. */
const MAX_REWRITES = 200;

/**
 * Flattens needless nesting, one proposal per function: an `else` after a branch that always
 * returns or throws, `if (c) return true; return false;` for a boolean `c`, and an `if` whose
 * whole body is another `if`. Each keeps the function's behaviour and drops a level of nesting
 * (or, for the boolean return, a branch) a reader has to keep in mind.
 */
export const earlyReturnPass: SimplificationPass = {
  name: 'early-return',
  level: 'aggressive',
  find(context) {
    const targets = scopedFiles(context).flatMap((file) => targetsIn(file));
    return targets
      .map((target) => proposal(context, target))
      .filter((proposal) => proposal.edits.length > 0)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  },
};

function targetsIn(file: SourceFile): Target[] {
  return candidateFunctions(file)
    .filter((node) => isFunctionWithBlock(node) && firstRewrite(node) !== undefined)
    .map((fn) => ({
      filePath: file.getFilePath(),
      start: fn.getStart(),
      kind: fn.getKind(),
      name: functionName(fn),
      line: fn.getStartLineNumber(),
    }));
}

function proposal(context: PassContext, target: Target): Proposal {
  const edits = captureEdits(context, () => {
    const file = context.project.getSourceFileOrThrow(target.filePath);
    for (let count = 0; count < MAX_REWRITES; count++) {
      const fn = functionAt(file, target);
      const edit = fn && firstRewrite(fn);
      if (!edit) return;
      file.replaceText([edit.start, edit.end], edit.text);
    }
  });
  return {
    pass: 'early-return',
    title: target.name
      ? `Flatten needless nesting in \`${target.name}\``
      : 'Flatten needless nesting in an anonymous function',
    path: relativePath(context, target.filePath),
    line: target.line,
    edits,
  };
}

/**
 * Functions with an `if` somewhere in them, found on the compiler's nodes and only then wrapped
 * by ts-morph: wrapping every node of a large file to look costs seconds.
 */
function candidateFunctions(file: SourceFile): Node[] {
  const sourceFile = file.compilerNode;
  const found = new Set<{ start: number; kind: SyntaxKind }>();
  const visit = (node: ts.Node, inFunctions: Array<{ start: number; kind: SyntaxKind }>): void => {
    let open = inFunctions;
    if (ts.isFunctionLike(node)) {
      const entry = { start: node.getStart(sourceFile), kind: node.kind };
      open = [...inFunctions, entry];
    }
    if (ts.isIfStatement(node)) for (const fn of open) found.add(fn);
    ts.forEachChild(node, (child) => visit(child, open));
  };
  visit(sourceFile, []);
  return [...found].flatMap((fn) => {
    const node = functionAt(file, fn);
    return node === undefined ? [] : [node];
  });
}

function isFunctionWithBlock(node: Node): boolean {
  if (!Node.isFunctionLikeDeclaration(node) && !Node.isFunctionExpression(node)) return false;
  return (Node.isBodyable(node) || Node.isBodied(node)) && Node.isBlock(node.getBody());
}

/** Outermost first, so that an `else if` chain unfolds from its head. */
function firstRewrite(fn: Node): TextEdit | undefined {
  for (const statement of ownIfs(fn)) {
    const edit = rewrite(statement);
    if (edit) return edit;
  }
  return undefined;
}

/** The `if` statements of `fn` itself, outermost first: not those of functions inside it. */
function ownIfs(fn: Node): IfStatement[] {
  return fn
    .getDescendantsOfKind(SyntaxKind.IfStatement)
    .filter(
      (statement) =>
        statement.getFirstAncestor(
          (node) =>
            Node.isFunctionLikeDeclaration(node) ||
            Node.isFunctionExpression(node) ||
            Node.isClassStaticBlockDeclaration(node),
        ) === fn,
    );
}

function functionAt(file: SourceFile, target: Pick<Target, 'start' | 'kind'>): Node | undefined {
  for (let node = file.getDescendantAtPos(target.start); node; node = node.getParent())
    if (node.getKind() === target.kind && node.getStart() === target.start) return node;
  return undefined;
}

function functionName(fn: Node): string | undefined {
  if (Node.isConstructorDeclaration(fn)) return 'constructor';
  if (
    Node.isFunctionDeclaration(fn) ||
    Node.isMethodDeclaration(fn) ||
    Node.isGetAccessorDeclaration(fn) ||
    Node.isSetAccessorDeclaration(fn) ||
    Node.isFunctionExpression(fn)
  ) {
    const name = fn.getName();
    if (name) return name;
  }
  const parent = fn.getParent();
  if (
    Node.isVariableDeclaration(parent) ||
    Node.isPropertyAssignment(parent) ||
    Node.isPropertyDeclaration(parent)
  )
    return parent.getName();
  return undefined;
}
