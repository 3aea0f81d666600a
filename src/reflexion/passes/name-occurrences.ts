import { type Node, type Project, type SourceFile, ts } from 'ts-morph';

/** Counts per file, keyed by the compiler's node: an edited file gets a new one, so a new count. */
const counts = new WeakMap<ts.SourceFile, ReadonlyMap<string, number>>();

/**
 * How many times each name appears in a file as a token that could refer to a declaration: an
 * identifier, a `#private` name, or a string (`this['name']`, a key list). The unused-code pass
 * asks this instead of the language service's reference search, which on a large project costs
 * tens of milliseconds a name: a name that appears once is its declaration alone, so nothing
 * refers to it; a name that appears again is taken as used, even when the other occurrence is
 * another symbol (a property, a shadowing local). That loses a few removals and never makes
 * a wrong one.
 */
export function occurrencesIn(file: SourceFile): ReadonlyMap<string, number> {
  const compiled = file.compilerNode;
  const known = counts.get(compiled);
  if (known !== undefined) return known;
  const found = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    const text = tokenText(node);
    if (text !== undefined) found.set(text, (found.get(text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(compiled);
  counts.set(compiled, found);
  return found;
}

/** A name as the counts hold it: `\u0061` is `a`, as the compiler reads it. */
export function nameText(name: Node): string {
  return tokenText(name.compilerNode) ?? name.getText();
}

/** Whether anything in `name`'s own file, besides `name` itself, spells the same name. */
export function namedAgainInFile(name: Node): boolean {
  return (occurrencesIn(name.getSourceFile()).get(nameText(name)) ?? 0) > 1;
}

/** Whether any file of the project other than `name`'s own spells the same name. */
export function namedInAnotherFile(project: Project, name: Node): boolean {
  const own = name.getSourceFile();
  const text = nameText(name);
  return project
    .getSourceFiles()
    .some((file) => file !== own && (occurrencesIn(file).get(text) ?? 0) > 0);
}

/** How many times `text` appears as such a token inside `node`. */
export function occurrencesWithin(node: Node, text: string): number {
  let found = 0;
  const visit = (each: ts.Node): void => {
    if (tokenText(each) === text) found += 1;
    ts.forEachChild(each, visit);
  };
  visit(node.compilerNode);
  return found;
}

function tokenText(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}
