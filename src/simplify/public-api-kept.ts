import { ts } from 'ts-morph';
import type { FileEdit } from '../reflexion/proposal.js';
import type { PublicApi } from '../reflexion/public-api/public-api.js';

/** One top-level name of a file: the names it is exported as, and its declarations' signature. */
interface Declared {
  readonly exportedAs: Set<string>;
  signature: string;
}

/**
 * How an edit changes the public API, in words, or undefined when it keeps it: every public
 * declaration of the file must still be there, exported under the same names, with the same
 * signature (its text without function bodies and private members, whitespace aside). Checked
 * on every proposal, whichever pass or model made it.
 */
export function publicApiChange(
  api: PublicApi,
  rootDir: string,
  edit: FileEdit,
): string | undefined {
  const names = api.namesIn(`${rootDir}/${edit.path}`);
  if (names.size === 0) return undefined;
  const before = declaredNames(edit.path, edit.before);
  const after =
    edit.after === null ? new Map<string, Declared>() : declaredNames(edit.path, edit.after);
  for (const name of [...names].sort()) {
    const was = before.get(name);
    if (was === undefined) continue;
    const now = after.get(name);
    const lost = [...was.exportedAs].filter((exported) => !now?.exportedAs.has(exported));
    if (now === undefined || lost.length > 0)
      return `it removes \`${lost[0] ?? name}\`, public API, from \`${edit.path}\``;
    if (now.signature !== was.signature)
      return `it changes the signature of \`${name}\`, public API, in \`${edit.path}\``;
  }
  return undefined;
}

function declaredNames(path: string, text: string): Map<string, Declared> {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKindOf(path));
  const declared = new Map<string, Declared>();
  const entry = (name: string): Declared => {
    const known = declared.get(name) ?? { exportedAs: new Set<string>(), signature: '' };
    declared.set(name, known);
    return known;
  };
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (statement.moduleSpecifier !== undefined || clause === undefined) continue;
      if (!ts.isNamedExports(clause)) continue;
      for (const specifier of clause.elements)
        entry((specifier.propertyName ?? specifier.name).getText(file)).exportedAs.add(
          specifier.name.getText(file),
        );
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      const local = ts.isIdentifier(statement.expression) ? statement.expression.text : 'default';
      const known = entry(local);
      known.exportedAs.add(statement.isExportEquals === true ? 'export=' : 'default');
      if (local === 'default') known.signature += signatureOf(statement, file);
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const exported = modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
    const isDefault = modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) === true;
    for (const [name, node] of declarationsOf(statement)) {
      const known = entry(name ?? 'default');
      if (exported) known.exportedAs.add(isDefault ? 'default' : (name ?? 'default'));
      known.signature += signatureOf(node, file);
    }
  }
  return declared;
}

/** The names a top-level statement declares, with the node each one's signature is read from. */
function declarationsOf(statement: ts.Statement): [string | undefined, ts.Node][] {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((declaration) =>
      ts.isIdentifier(declaration.name)
        ? [[declaration.name.text, declaration] as [string, ts.Node]]
        : [],
    );
  if (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    const name = statement.name;
    return [[name !== undefined && ts.isIdentifier(name) ? name.text : undefined, statement]];
  }
  return [];
}

/**
 * The declaration's text without what does not change how it is called or typed from outside:
 * function bodies, the value of a constant with a written type, private members and
 * `implements` clauses. Whitespace is collapsed: re-indenting is no change.
 */
function signatureOf(node: ts.Node, file: ts.SourceFile): string {
  const cuts: [number, number][] = [];
  const visit = (child: ts.Node): void => {
    // `implements` only checks the class against an interface: the class's type is its own.
    if (isPrivateMember(child) || isImplementsClause(child)) {
      cuts.push([child.getStart(file), child.end]);
      return;
    }
    const body = ts.isFunctionLike(child) && 'body' in child ? child.body : undefined;
    // An arrow function's expression is its body as much as a block is.
    if (body !== undefined && (ts.isBlock(body) || ts.isArrowFunction(child))) {
      cuts.push([body.getStart(file), body.end]);
      ts.forEachChild(child, (each) => (each === body ? undefined : visit(each)));
      return;
    }
    // A constant whose type is written out is typed by that annotation: its value is a body.
    if (ts.isVariableDeclaration(child) && child.type !== undefined && child.initializer) {
      cuts.push([child.initializer.getStart(file), child.initializer.end]);
      visit(child.type);
      return;
    }
    if (ts.isClassStaticBlockDeclaration(child)) {
      cuts.push([child.getStart(file), child.end]);
      return;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  let text = '';
  let at = node.getStart(file);
  for (const [start, end] of cuts.sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    text += `${file.text.slice(at, start)} `;
    at = end;
  }
  text += file.text.slice(at, node.end);
  return `${text.replace(/\s+/g, ' ').trim()};`;
}

function isImplementsClause(node: ts.Node): boolean {
  return ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword;
}

function isPrivateMember(node: ts.Node): boolean {
  if (!ts.isClassElement(node)) return false;
  if (node.name !== undefined && ts.isPrivateIdentifier(node.name)) return true;
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) === true;
}

function scriptKindOf(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(path)) return ts.ScriptKind.TS;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}
