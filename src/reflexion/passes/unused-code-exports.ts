import { type Identifier, Node, type SourceFile, type Statement, ts } from 'ts-morph';
import type { PassContext, Proposal } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { isPublic } from '../public-api/public-api.js';
import { hasModuleSyntax, looksGenerated, moduleReach } from './module-reach.js';
import {
  applyRemovals,
  isSideEffectFree,
  namedAgainInFile,
  namedInAnotherFile,
  unusedImports,
} from './unused-code-references.js';

/** Exports one proposal takes from one file; the rest are proposed by the next run. */
const MAX_EXPORTS_PER_PROPOSAL = 100;

interface UnusedExport {
  readonly filePath: string;
  readonly name: string;
  readonly line: number;
  /** Used in its own file: the declaration stays, only `export` goes. */
  readonly usedInFile: boolean;
}

/**
 * Exported declarations no other file refers to: removed when their own file does not use them
 * either (one proposal per file), else their `export` dropped (another). Public API is left
 * alone, and so are exports in files taken as a whole (barrel members, `import()` targets,
 * namespace imports) and everywhere when some `import()` has a computed target: their names may
 * be looked up at run time.
 */
export function unusedExportProposals(context: PassContext): Proposal[] {
  const reach = moduleReach(context.project);
  if (reach.unknownTarget) return [];
  const candidates = scopedFiles(context)
    .filter(
      (file) =>
        !file.isDeclarationFile() &&
        !looksGenerated(file) &&
        !reach.takenWhole.has(file.getFilePath()),
    )
    .flatMap(unusedExports)
    .filter((found) => !isPublic(context.publicApi, found.filePath, found.name));
  const groups = new Map<string, UnusedExport[]>();
  for (const candidate of candidates) {
    const key = `${candidate.usedInFile ? 'unexport' : 'remove'}:${candidate.filePath}`;
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  const proposals: Proposal[] = [];
  // One proposal per file and kind: a file's exports taken one proposal each would re-parse and
  // re-verify the file once per export, which does not finish on a file of thousands of them.
  // Removals and dropped `export`s stay apart: the latter alone do not lower the price, and
  // riding along with a removal they would stop a later patch from importing the name.
  for (const all of groups.values()) {
    // Each removal re-binds the program: a bounded number per run keeps a run in seconds.
    const group = all.slice(0, MAX_EXPORTS_PER_PROPOSAL);
    const [first] = group;
    if (first === undefined) continue;
    const edits = captureEdits(context, () => {
      for (const candidate of group) applyUnusedExport(context, candidate);
    });
    if (edits.length === 0) continue;
    const path = relativePath(context, first.filePath);
    proposals.push({
      pass: 'unused-code',
      title: titleOf(group, path),
      path,
      line: Math.min(...group.map((candidate) => candidate.line)),
      edits,
    });
  }
  return proposals;
}

function titleOf(group: readonly UnusedExport[], path: string): string {
  const [only, ...more] = group;
  if (only === undefined) return '';
  if (more.length === 0)
    return only.usedInFile
      ? `Stop exporting \`${only.name}\`, used only in its own file`
      : `Remove unused export \`${only.name}\``;
  return only.usedInFile
    ? `Stop exporting ${group.length} names \`${path}\` uses only itself`
    : `Remove ${group.length} unused exports from \`${path}\``;
}

function unusedExports(file: SourceFile): UnusedExport[] {
  const found: UnusedExport[] = [];
  for (const statement of file.getStatements()) {
    const name = declaredName(statement);
    if (name === undefined || !Node.isExportable(statement) || !statement.hasExportKeyword())
      continue;
    // Merged declarations (overloads, a namespace beside a function) are one export in many parts.
    if (name.getSymbol()?.getDeclarations().length !== 1) continue;
    if (namedInAnotherFile(file.getProject(), name)) continue;
    const usedInFile = namedAgainInFile(name);
    if (!usedInFile && !isRemovable(statement)) continue;
    found.push({
      filePath: file.getFilePath(),
      name: name.getText(),
      line: statement.getStartLineNumber(),
      usedInFile,
    });
  }
  return found;
}

/** The name a top-level declaration this pass handles introduces (not default, not ambient). */
function declaredName(statement: Statement): Identifier | undefined {
  if (Node.isVariableStatement(statement)) {
    const [declaration, ...more] = statement.getDeclarations();
    const name = declaration?.getNameNode();
    return more.length === 0 && !statement.hasDeclareKeyword() && Node.isIdentifier(name)
      ? name
      : undefined;
  }
  if (
    !Node.isFunctionDeclaration(statement) &&
    !Node.isClassDeclaration(statement) &&
    !Node.isInterfaceDeclaration(statement) &&
    !Node.isTypeAliasDeclaration(statement)
  )
    return undefined;
  if (statement.hasDeclareKeyword() || statement.hasDefaultKeyword()) return undefined;
  return statement.getNameNode();
}

/** Whether the declaration can go without taking code that runs on load with it. */
function isRemovable(statement: Statement): boolean {
  if (Node.isVariableStatement(statement))
    return statement.getDeclarations().every((each) => isSideEffectFree(each.getInitializer()));
  if (!Node.isClassDeclaration(statement)) return true;
  // A class runs its decorators, `extends` expression, computed keys, static blocks and static
  // initializers when it is defined.
  const heritage = statement.getExtends()?.getExpression();
  return (
    statement.getDescendantsOfKind(ts.SyntaxKind.Decorator).length === 0 &&
    statement.getStaticBlocks().length === 0 &&
    (heritage === undefined || Node.isIdentifier(heritage)) &&
    statement
      .getMembers()
      .every(
        (member) =>
          member.getFirstChildByKind(ts.SyntaxKind.ComputedPropertyName) === undefined &&
          !(
            Node.isPropertyDeclaration(member) &&
            member.isStatic() &&
            !isSideEffectFree(member.getInitializer())
          ),
      )
  );
}

/**
 * Drops the `export` or removes the declaration, then puts the file back if the result would be
 * a script (its names turned global) or an empty file that another one imports.
 */
function applyUnusedExport(context: PassContext, candidate: UnusedExport): void {
  const file = context.project.getSourceFileOrThrow(candidate.filePath);
  const statement = file
    .getStatements()
    .find((each) => declaredName(each)?.getText() === candidate.name);
  if (statement === undefined || !Node.isExportable(statement)) return;
  const original = file.getFullText();
  const importedElsewhere = file.getReferencingSourceFiles().some((other) => other !== file);
  if (candidate.usedInFile) statement.setIsExported(false);
  else removeWithOrphans(file, statement);
  const emptied = file.getFullText().trim() === '';
  if (emptied ? importedElsewhere : !hasModuleSyntax(file)) file.replaceWithText(original);
}

/**
 * Removes the declaration and what only it used: imports and unexported top-level declarations
 * of its file left without a reference, so that nothing is left dangling.
 */
function removeWithOrphans(file: SourceFile, statement: Statement): void {
  let doomed = [statement];
  while (doomed.length > 0) {
    const names = new Set(
      doomed.flatMap((each) =>
        each.getDescendantsOfKind(ts.SyntaxKind.Identifier).map((id) => id.getText()),
      ),
    );
    for (const each of doomed) each.remove();
    applyRemovals(unusedImports(file, (name) => names.has(name)));
    doomed = file.getStatements().filter((each) => {
      const name = declaredName(each);
      return (
        name !== undefined &&
        names.has(name.getText()) &&
        !(Node.isExportable(each) && each.hasExportKeyword()) &&
        name.getSymbol()?.getDeclarations().length === 1 &&
        isRemovable(each) &&
        !namedAgainInFile(name)
      );
    });
  }
}
