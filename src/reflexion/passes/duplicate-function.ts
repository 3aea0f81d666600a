import { posix } from 'node:path';
import type { FunctionDeclaration } from 'ts-morph';
import { type ImportSpecifier, type Project, type SourceFile, SyntaxKind, ts } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath } from '../proposal.js';
import type { Span } from './duplicate-function-plan.js';
import {
  functionKey,
  type Merge,
  mergeable,
  mergePlan,
  sameMeaning,
} from './duplicate-function-plan.js';
import { dropImportsLeftUnused } from './import-edits.js';

interface Located {
  readonly fn: FunctionDeclaration;
  readonly path: string;
  readonly line: number;
}

/**
 * Merges module-level functions that are the same function under different names or in
 * different files: the first one declared (by path, then line) stays, and each copy in scope
 * is deleted, its callers calling (and importing) the one that stays. One fix instead of two.
 */
export const duplicateFunctionPass: SimplificationPass = {
  name: 'duplicate-function',
  level: 'aggressive',
  find(context) {
    const merges: {
      readonly merge: Merge;
      readonly duplicate: Located;
      readonly keeper: Located;
    }[] = [];
    for (const [keeper, ...duplicates] of duplicateGroups(context))
      for (const duplicate of duplicates) {
        if (!keeper) continue;
        if (!context.scope.has(duplicate.path) || !sameMeaning(keeper.fn, duplicate.fn)) continue;
        const merge = mergePlan(keeper.fn, duplicate.fn, context.publicApi);
        if (merge) merges.push({ merge, duplicate, keeper });
      }
    return merges
      .map(({ merge, duplicate, keeper }) => proposal(context, merge, duplicate, keeper))
      .filter((proposal) => proposal.edits.length > 0)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  },
};

/** Functions with the same key, two or more, each sorted by where it is declared. */
function duplicateGroups(context: PassContext): Located[][] {
  const groups = new Map<string, Located[]>();
  for (const file of context.project.getSourceFiles()) {
    if (file.isDeclarationFile() || file.isInNodeModules()) continue;
    const path = relativePath(context, file.getFilePath());
    for (const fn of file.getFunctions()) {
      if (!mergeable(fn)) continue;
      const key = functionKey(fn);
      const located = { fn, path, line: fn.getStartLineNumber() };
      groups.set(key, [...(groups.get(key) ?? []), located]);
    }
  }
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) =>
      group.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)),
    );
}

function proposal(
  context: PassContext,
  merge: Merge,
  duplicate: Located,
  keeper: Located,
): Proposal {
  const into =
    merge.keeperName === merge.duplicateName
      ? `\`${keeper.path}\``
      : `\`${merge.keeperName}\` in \`${keeper.path}\``;
  return {
    pass: 'duplicate-function',
    title: `Merge duplicate \`${merge.duplicateName}\` into ${into}`,
    path: duplicate.path,
    line: duplicate.line,
    edits: captureEdits(context, () => applyMerge(context.project, merge)),
  };
}

/** Points the duplicate's references at the keeper and deletes the duplicate. */
function applyMerge(project: Project, merge: Merge): void {
  const keeperFile = project.getSourceFileOrThrow(merge.keeperPath);
  const spans: (Span & { readonly alias?: string; readonly move: boolean })[] = [
    ...merge.renames.map((span) => ({ ...span, move: false })),
    ...merge.movedImports.map((span) => ({ ...span, move: true })),
  ];
  const deferred: { readonly file: SourceFile; readonly alias?: string }[] = [];
  // From the end of each file backwards, so that every span still points where it did.
  for (const span of spans.sort((a, b) => b.start - a.start)) {
    const file = project.getSourceFileOrThrow(span.path);
    if (!span.move) file.replaceText([span.start, span.end], merge.keeperName);
    else if (!moveImport(file, span, keeperFile, merge.keeperName))
      deferred.push(span.alias === undefined ? { file } : { file, alias: span.alias });
  }
  for (const { file, alias } of deferred) addImport(file, keeperFile, merge.keeperName, alias);
  if (merge.importInto !== undefined)
    addImport(project.getSourceFileOrThrow(merge.importInto), keeperFile, merge.keeperName);
  const duplicateFile = project.getSourceFileOrThrow(merge.duplicatePath);
  duplicateFile.getFunctionOrThrow(merge.duplicateName).remove();
  dropImportsLeftUnused(duplicateFile, merge.duplicateImports);
  if (merge.exportKeeper) keeperFile.getFunctionOrThrow(merge.keeperName).setIsExported(true);
}

/**
 * Turns `import { duplicate } from './d.js'` into `import { keeper } from './k.js'` in place when
 * it imports nothing else; otherwise drops the specifier. False when the keeper is still to be
 * imported: it need not be in its own file, nor where the same name imports it already.
 */
function moveImport(
  file: SourceFile,
  moved: Span & { readonly alias?: string },
  keeperFile: SourceFile,
  name: string,
): boolean {
  const specifier = file
    .getDescendantAtPos(moved.start)
    ?.getFirstAncestorByKind(SyntaxKind.ImportSpecifier);
  if (!specifier) throw new Error(`no import specifier at ${moved.start} in ${file.getFilePath()}`);
  const declaration = specifier.getImportDeclaration();
  const imported =
    file === keeperFile || importing(file, keeperFile, moved.alias ?? name, specifier);
  const alone =
    declaration.getNamedImports().length === 1 &&
    !declaration.getDefaultImport() &&
    !declaration.getNamespaceImport();
  if (!imported && alone) {
    const literal = declaration.getModuleSpecifier();
    const quote = literal.getText().charAt(0);
    if (declaration.getModuleSpecifierSourceFile() !== keeperFile)
      literal.replaceWithText(quote + moduleSpecifier(file, keeperFile) + quote);
    specifier.replaceWithText(moved.alias === undefined ? name : `${name} as ${moved.alias}`);
    return true;
  }
  specifier.remove();
  // ts-morph leaves `import {} from '…'` behind; such an import would still load the module.
  if (alone) declaration.remove();
  return imported;
}

/** Whether an import (other than `except`) already brings in the keeper as `local`. */
function importing(
  file: SourceFile,
  keeperFile: SourceFile,
  local: string,
  except?: ImportSpecifier,
): boolean {
  return file
    .getImportDeclarations()
    .some(
      (declaration) =>
        declaration.getModuleSpecifierSourceFile() === keeperFile &&
        declaration
          .getNamedImports()
          .some(
            (named) =>
              named !== except && (named.getAliasNode()?.getText() ?? named.getName()) === local,
          ),
    );
}

function addImport(file: SourceFile, keeperFile: SourceFile, name: string, alias?: string): void {
  if (importing(file, keeperFile, alias ?? name)) return;
  const specifier = alias === undefined ? name : { name, alias };
  const existing = file
    .getImportDeclarations()
    .find(
      (declaration) =>
        declaration.getModuleSpecifierSourceFile() === keeperFile &&
        !declaration.isTypeOnly() &&
        !declaration.getNamespaceImport(),
    );
  if (existing) {
    existing.addNamedImport(specifier);
    return;
  }
  const quote = quoteOf(file);
  const added = file.addImportDeclaration({ moduleSpecifier: '', namedImports: [specifier] });
  added.getModuleSpecifier().replaceWithText(quote + moduleSpecifier(file, keeperFile) + quote);
}

/** The quote the file's (else the project's) imports use: ts-morph would write its own. */
function quoteOf(file: SourceFile): string {
  for (const candidate of [file, ...file.getProject().getSourceFiles()])
    for (const declaration of candidate.getImportDeclarations()) {
      const quote = declaration.getModuleSpecifier().getText().charAt(0);
      if (quote === "'" || quote === '"') return quote;
    }
  return '"';
}

/** The relative specifier of `to` from `from`, with the extension the project's imports use. */
function moduleSpecifier(from: SourceFile, to: SourceFile): string {
  const relative = posix.relative(posix.dirname(from.getFilePath()), to.getFilePath());
  const path = relative.startsWith('.') ? relative : `./${relative}`;
  const extension = posix.extname(path);
  const bare = path.slice(0, path.length - extension.length);
  switch (extensionStyle(from)) {
    case 'source':
      return path;
    case 'output':
      return bare + (OUTPUT_EXTENSIONS[extension] ?? extension);
    default:
      return bare;
  }
}

const OUTPUT_EXTENSIONS: Readonly<Record<string, string>> = {
  '.ts': '.js',
  '.tsx': '.js',
  '.mts': '.mjs',
  '.cts': '.cjs',
};

/**
 * How relative imports name files here: as the sources (`./a.ts`), as the output (`./a.js`, which
 * Node's ESM resolution needs) or without an extension. The file's own imports decide, then the
 * project's, then its module resolution.
 */
function extensionStyle(from: SourceFile): 'source' | 'output' | 'none' {
  const files = [from, ...from.getProject().getSourceFiles()];
  for (const file of files)
    for (const declaration of [...file.getImportDeclarations(), ...file.getExportDeclarations()]) {
      const specifier = declaration.getModuleSpecifierValue();
      if (!specifier?.startsWith('.')) continue;
      if (/\.[cm]?tsx?$/.test(specifier)) return 'source';
      if (/\.[cm]?jsx?$/.test(specifier)) return 'output';
      return 'none';
    }
  const resolution = from.getProject().getCompilerOptions().moduleResolution;
  return resolution === ts.ModuleResolutionKind.Node16 ||
    resolution === ts.ModuleResolutionKind.NodeNext
    ? 'output'
    : 'none';
}
