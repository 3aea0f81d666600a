import type { FunctionDeclaration } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath } from '../proposal.js';
import { applyMerge } from './duplicate-function-merge.js';
import {
  functionKey,
  type Merge,
  mergeable,
  mergePlan,
  sameMeaning,
} from './duplicate-function-plan.js';

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
