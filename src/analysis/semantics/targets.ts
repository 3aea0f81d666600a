import type { FileFacts } from '../../model/facts.js';

/** A class or abstraction declared in a repository file, named as the file declares it. */
export interface DeclarationRef {
  readonly file: string;
  readonly name: string;
}

/**
 * Why a reference has no declaration. Nothing is guessed: a reference either reaches one
 * declaration by the rules of resolve-reference.ts or is reported with one of these.
 * - `external`: it leads out of the repository: a package, a builtin or standard-library
 *   module, or a global (a name the file neither declares nor imports: `Error`, `Exception`,
 *   `java.lang.Object`). `detail` names the package, module or global.
 * - `not-found`: it leads into the repository but to no declaration: a file that is not
 *   analysed, a name the module neither declares nor re-exports, a re-export cycle or a chain
 *   longer than the cap, a module where a class was expected.
 * - `ambiguous`: several files could hold it (Java and Python find modules by path suffix).
 * - `expression`: the base is an expression (`extends mixin(Base)`), not a name.
 * - `builtin`: a class of the language or its platform that the file neither declares nor
 *   imports (`Error`, `Exception`, `java.lang.Object`; builtin-bases.ts). `detail` is the name.
 */
/** `too-deep`: reached through more re-exports in a row than AUREUS follows (exported-names.ts). */
export type UnresolvedReason =
  | 'external'
  | 'not-found'
  | 'ambiguous'
  | 'expression'
  | 'builtin'
  | 'too-deep';

export type ReferenceTarget =
  | ({ readonly kind: 'declaration' } & DeclarationRef)
  | { readonly kind: 'unresolved'; readonly reason: UnresolvedReason; readonly detail: string };

/** While resolving, a name may also stand for a whole module (`import * as ns`, Python's `import a`). */
export type Target = ReferenceTarget | { readonly kind: 'module'; readonly file: string };

export function unresolved(reason: UnresolvedReason, detail: string): Target {
  return { kind: 'unresolved', reason, detail };
}

export const DEFAULT_EXPORT = 'default';

/**
 * The class or abstraction `name` declared in a file, if any. A TS/JS `default` is the one
 * declared by the `export default` statement: ClassFact names `export default class X` `X`
 * (an anonymous one `default`), and its span starts on the line of the `default` export, which
 * is how the two are paired. `export default X;` of a class declared elsewhere in the file
 * cannot be paired from the facts (ExportFact does not say which local it exports): not found.
 */
export function declaredIn(file: string, facts: FileFacts, name: string): Target | undefined {
  const declares = (declared: string) =>
    facts.classes.some((fact) => fact.name === declared) ||
    facts.abstractions.some((fact) => fact.name === declared);
  if (declares(name)) return { kind: 'declaration', file, name };
  if (name !== DEFAULT_EXPORT || !isScript(facts)) return undefined;
  const line = facts.exports.find((fact) => fact.name === DEFAULT_EXPORT)?.line;
  if (line === undefined) return undefined;
  const declaration =
    facts.classes.find((fact) => fact.span.start === line) ??
    facts.abstractions.find((fact) => fact.span.start === line);
  return declaration === undefined
    ? undefined
    : { kind: 'declaration', file, name: declaration.name };
}

export function isScript(facts: FileFacts): boolean {
  return (
    facts.language === 'typescript' || facts.language === 'tsx' || facts.language === 'javascript'
  );
}
