import type { SourceFile } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { hasModuleSyntax, looksGenerated } from './module-reach.js';
import { unusedExportProposals } from './unused-code-exports.js';
import { unusedInFile } from './unused-code-in-file.js';
import { applyRemovals, describeRemovals, type Removal } from './unused-code-references.js';

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
