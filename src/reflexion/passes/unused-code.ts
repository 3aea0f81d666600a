import {
  type ClassDeclaration,
  type ClassExpression,
  Node,
  type SourceFile,
  ts,
  VariableDeclarationKind,
} from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { hasModuleSyntax, looksGenerated } from './module-reach.js';
import { unusedExportProposals } from './unused-code-exports.js';
import {
  applyRemovals,
  describeRemovals,
  isSideEffectFree,
  namedAgainInFile,
  outermost,
  type Removal,
  unusedImports,
} from './unused-code-references.js';

/**
 * Removes what nothing uses: unused imports, locals and private members (one proposal per file),
 * and exports no other file imports (one proposal each).
 */
export const unusedCodePass: SimplificationPass = {
  name: 'unused-code',
  level: 'conservative',
  find(context) {
    return [...inFileProposals(context), ...unusedExportProposals(context)].sort(
      (a, b) => compare(a.path, b.path) || a.line - b.line || compare(a.title, b.title),
    );
  },
};

function inFileProposals(context: PassContext): Proposal[] {
  const proposals: Proposal[] = [];
  const filePaths = scopedFiles(context)
    .filter((file) => !file.isDeclarationFile() && !looksGenerated(file))
    .map((file) => file.getFilePath());
  for (const filePath of filePaths) {
    let summary: Summary = { what: '', line: 0 };
    const edits = captureEdits(context, () => {
      summary = removeUnusedIn(context.project.getSourceFileOrThrow(filePath));
    });
    if (edits.length === 0) continue;
    const path = relativePath(context, filePath);
    proposals.push({
      pass: 'unused-code',
      title: `Remove ${summary.what} from \`${path}\``,
      path,
      line: summary.line,
      edits,
    });
  }
  return proposals;
}

interface Summary {
  readonly what: string;
  readonly line: number;
}

function removeUnusedIn(file: SourceFile): Summary {
  const original = file.getFullText();
  const wasModule = hasModuleSyntax(file);
  const summary = removeAll(unusedInFile(file));
  if (!wasModule || hasModuleSyntax(file)) return summary;
  // Without its imports the file would become a script, its top-level names global: keep them.
  file.replaceWithText(original);
  return removeAll(unusedInFile(file).filter((removal) => removal.kind !== 'import'));
}

function removeAll(removals: readonly Removal[]): Summary {
  const summary = {
    what: describeRemovals(removals),
    line: Math.min(...removals.map((removal) => removal.node.getStartLineNumber())),
  };
  applyRemovals(removals);
  return summary;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What nothing uses in `file` and can go without changing behaviour (what lies inside another removal left out). */
function unusedInFile(file: SourceFile): Removal[] {
  return outermost([...unusedImports(file), ...unusedLocals(file), ...unusedPrivateMembers(file)]);
}

/**
 * `const`/`let` declarations and function declarations in function bodies that nothing refers
 * to (not even a write). A declaration whose initializer could run code stays: the code would
 * no longer run.
 */
function unusedLocals(file: SourceFile): Removal[] {
  const removals: Removal[] = [];
  for (const declaration of file.getDescendantsOfKind(ts.SyntaxKind.VariableDeclaration)) {
    const statement = declaration.getVariableStatement();
    const kind = statement?.getDeclarationKind();
    const name = declaration.getNameNode();
    // Not `var` (hoisted, redeclarable) nor `using` (disposes of its value when the block ends).
    if (
      statement === undefined ||
      (kind !== VariableDeclarationKind.Const && kind !== VariableDeclarationKind.Let) ||
      !isInFunctionBody(statement) ||
      !Node.isIdentifier(name) ||
      !isSideEffectFree(declaration.getInitializer()) ||
      namedAgainInFile(name)
    )
      continue;
    removals.push({
      kind: 'local',
      count: 1,
      node: declaration,
      remove: () => declaration.remove(),
    });
  }
  for (const fn of file.getDescendantsOfKind(ts.SyntaxKind.FunctionDeclaration)) {
    const name = fn.getNameNode();
    if (
      name === undefined ||
      !fn.hasBody() ||
      fn.getOverloads().length > 0 ||
      !isInFunctionBody(fn) ||
      namedAgainInFile(name)
    )
      continue;
    removals.push({ kind: 'local', count: 1, node: fn, remove: () => fn.remove() });
  }
  return removals;
}

function isInFunctionBody(node: Node): boolean {
  for (let parent = node.getParent(); parent !== undefined; parent = parent.getParent()) {
    if (Node.isFunctionLikeDeclaration(parent) || Node.isFunctionExpression(parent)) return true;
    if (Node.isClassStaticBlockDeclaration(parent) || Node.isModuleBlock(parent)) return false;
  }
  return false;
}

/**
 * `private` and `#private` fields and methods the class never refers to. Stay: decorated members
 * (a decorator may register them), overloaded methods, fields whose initializer could run code,
 * members of a class that indexes `this` with a computed key, members whose name a string in the
 * file spells out (`this['name']`, a key list), and `private` fields of a class that lets `this`
 * go (`JSON.stringify(this)`, `return this`), since a `private` field is an own property anyone
 * can enumerate.
 */
function unusedPrivateMembers(file: SourceFile): Removal[] {
  const classes: (ClassDeclaration | ClassExpression)[] = [
    ...file.getDescendantsOfKind(ts.SyntaxKind.ClassDeclaration),
    ...file.getDescendantsOfKind(ts.SyntaxKind.ClassExpression),
  ];
  const removals: Removal[] = [];
  for (const cls of classes) {
    if (indexesThis(cls)) continue;
    const letsThisGo = thisEscapes(cls);
    for (const member of cls.getMembers()) {
      if (!Node.isPropertyDeclaration(member) && !Node.isMethodDeclaration(member)) continue;
      const name = member.getNameNode();
      const hashPrivate = Node.isPrivateIdentifier(name);
      const tsPrivate = Node.isIdentifier(name) && member.hasModifier(ts.SyntaxKind.PrivateKeyword);
      if (!hashPrivate && !tsPrivate) continue;
      // A string spelling the name (`this['name']`) counts as a use: namedAgainInFile below.
      if (member.getDecorators().length > 0) continue;
      if (
        Node.isMethodDeclaration(member) &&
        (member.getOverloads().length > 0 || !member.hasBody())
      )
        continue;
      if (
        Node.isPropertyDeclaration(member) &&
        (!isSideEffectFree(member.getInitializer()) || (tsPrivate && letsThisGo))
      )
        continue;
      if (namedAgainInFile(name)) continue;
      removals.push({
        kind: 'private member',
        count: 1,
        node: member,
        remove: () => member.remove(),
      });
    }
  }
  return removals;
}

/** `this[key]` with a key that is not a literal: any member may be read that way. */
function indexesThis(cls: Node): boolean {
  return cls.getDescendantsOfKind(ts.SyntaxKind.ElementAccessExpression).some((access) => {
    const key = access.getArgumentExpression();
    return (
      access.getExpression().getKind() === ts.SyntaxKind.ThisKeyword &&
      !Node.isStringLiteral(key) &&
      !Node.isNumericLiteral(key)
    );
  });
}

/** `this` used other than to reach one of its members. */
function thisEscapes(cls: Node): boolean {
  return cls.getDescendantsOfKind(ts.SyntaxKind.ThisKeyword).some((self) => {
    const parent = self.getParent();
    return !(
      (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) &&
      parent.getExpression() === self
    );
  });
}
