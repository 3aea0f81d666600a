import type { SourceFile } from 'ts-morph';
import { patchApplies } from '../git/index.js';
import type { PricedChange } from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { priceChange } from '../pricing/price-change.js';
import { changeOfEdits, unifiedDiff } from '../reflexion/edit-forms.js';
import type { FileEdit, PassContext, Proposal } from '../reflexion/proposal.js';
import { publicApiChange } from './public-api-kept.js';
import { addedErrors, type TypeErrorBaseline, typeErrorsOf } from './type-errors.js';

export interface VerifiedPatch {
  readonly proposal: Proposal;
  /** The unified diff `git apply` accepted. */
  readonly patch: string;
  /** The patch priced as a change: its total is below zero. */
  readonly price: PricedChange;
}

export interface DroppedProposal {
  readonly proposal: Proposal;
  /** The check it failed, in words a reader can act on. */
  readonly reason: string;
}

export interface VerifyEnvironment {
  readonly root: string;
  readonly context: PassContext;
  readonly policy: Policy;
  /** Facts of a text (TS/JS): the same parsers `aureus check` prices with. */
  readonly factsOf: (path: string, text: string) => Promise<FileFacts | undefined>;
  /** Policy modules before and after the edits (the module budget's unit). */
  readonly modulesOf: (deleted: ReadonlySet<string>) => readonly string[];
  /** The untouched project's type errors, file by file, checked once per run. */
  readonly typeErrorsBefore: TypeErrorBaseline;
}

/**
 * The checks every patch passes before anyone sees it: it keeps the public API, it applies
 * cleanly to the working tree (`git apply --check`), it adds no type error to the files it
 * edits or the files that import them, and the pricing `aureus check` uses charges it less than
 * nothing. The first failed check drops it, with the reason.
 */
export async function verifyProposal(
  env: VerifyEnvironment,
  proposal: Proposal,
): Promise<VerifiedPatch | DroppedProposal> {
  const { edits } = proposal;
  if (edits.length === 0) return { proposal, reason: 'it changes nothing' };
  const { publicApi, rootDir } = env.context;
  for (const edit of edits) {
    const change = publicApiChange(publicApi, rootDir, edit);
    if (change !== undefined) return { proposal, reason: change };
  }
  const patch = unifiedDiff(edits);
  const applied = await patchApplies(env.root, patch);
  if (!applied.applies)
    return { proposal, reason: `it does not apply to the working tree: ${applied.reason}` };
  const added = newTypeErrors(env.context, env.typeErrorsBefore, edits);
  if (added.length > 0) {
    const shown = added.slice(0, 3).map((line) => line.slice(env.context.rootDir.length + 1));
    return { proposal, reason: `it adds type errors: ${shown.join('; ')}` };
  }
  const price = await priceEdits(env, edits);
  if (price.cost.total >= 0)
    return { proposal, reason: `it does not lower the price (${price.cost.total} points)` };
  return { proposal, patch, price };
}

/**
 * Applies the edits to the project, type-checks the files they reach (the edited files and
 * those that import them), returns the errors the edits added, and undoes them.
 */
export function newTypeErrors(
  context: PassContext,
  typeErrorsBefore: TypeErrorBaseline,
  edits: readonly FileEdit[],
): string[] {
  const { project, rootDir } = context;
  const edited = edits.map((edit) => ({
    edit,
    file: project.getSourceFile(`${rootDir}/${edit.path}`),
  }));
  const reached = new Set<SourceFile>();
  for (const { file } of edited) {
    if (file === undefined) continue;
    reached.add(file);
    for (const importer of file.getReferencingSourceFiles()) reached.add(importer);
  }
  const before = typeErrorsBefore([...reached]);
  const paths = [...reached].map((file) => file.getFilePath());
  try {
    for (const { edit, file } of edited) {
      if (file === undefined) continue;
      if (edit.after === null) project.removeSourceFile(file);
      else file.replaceWithText(edit.after);
    }
    const after = paths.flatMap((path) => {
      const file = project.getSourceFile(path);
      return file === undefined ? [] : [file];
    });
    return addedErrors(before, typeErrorsOf(after));
  } finally {
    for (const { edit } of edited) {
      project.createSourceFile(`${rootDir}/${edit.path}`, edit.before, { overwrite: true });
    }
  }
}

async function priceEdits(
  env: VerifyEnvironment,
  edits: readonly FileEdit[],
): Promise<PricedChange> {
  const baseFacts = new Map<string, FileFacts>();
  const headFacts = new Map<string, FileFacts>();
  for (const edit of edits) {
    const before = await env.factsOf(edit.path, edit.before);
    if (before !== undefined) baseFacts.set(edit.path, before);
    if (edit.after === null) continue;
    const after = await env.factsOf(edit.path, edit.after);
    if (after !== undefined) headFacts.set(edit.path, after);
  }
  const deleted = new Set(edits.flatMap((edit) => (edit.after === null ? [edit.path] : [])));
  return priceChange({
    change: changeOfEdits(edits),
    baseFacts,
    headFacts,
    baseModules: env.modulesOf(new Set()),
    headModules: env.modulesOf(deleted),
    policy: env.policy,
  });
}
