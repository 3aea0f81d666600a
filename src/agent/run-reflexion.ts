import { reflexionTrigger } from '../gate/suggest-alternatives.js';
import { runGit } from '../git/git-runner.js';
import type { Report } from '../model/report.js';
import { applyPatches } from '../simplify/apply-patches.js';
import { commitRunWork, type VerifySettings } from './run-verify.js';
import { protectedPathTest } from './safety/path-authority.js';

/**
 * Reflexion inside a run: once Verify passes, a change that trips simplification.triggers (more
 * than added_loc lines, or a new abstraction, as reflexionTrigger tells `aureus check`) gets
 * the verified passes `aureus simplify` runs, on the files the run changed in its own tree. The
 * patches that verify (and reach no protected path) are written and committed on the run's
 * branch as one commit; the loop verifies the branch again and takes the commit back if that
 * fails.
 */

export interface RunSimplification {
  readonly pass: string;
  readonly title: string;
  readonly path: string;
  readonly line: number;
  /** The patch's price as a change: below zero. */
  readonly points: number;
}

export interface Reflection {
  /** Why reflexion ran, in the trigger's words. */
  readonly why: string;
  readonly patches: readonly RunSimplification[];
  /** The commit holding the patches, when any were written. */
  readonly commit: string | null;
}

export async function reflectOnRun(
  settings: VerifySettings,
  report: Report,
): Promise<Reflection | null> {
  const { place, policy } = settings;
  const why = reflexionTrigger(report.cost, policy);
  if (why === undefined) return null;
  const changed = await runGit(place.tree, [
    'diff',
    '--name-only',
    '-z',
    '--no-renames',
    '--diff-filter=AM',
    settings.startCommit,
    'HEAD',
  ]);
  const only = new Set(
    changed.stdout
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== ''),
  );
  // The passes, and ts-morph with TypeScript under them, load only when reflexion is due: a
  // run's other processes (the Action's and the builder's steps) never pay for loading them.
  const [{ simplifyRepository }, { SIMPLIFICATION_PASSES }] = await Promise.all([
    import('../simplify/simplify-repository.js'),
    import('../reflexion/pass-catalog.js'),
  ]);
  const result = await simplifyRepository(place.tree, policy, SIMPLIFICATION_PASSES, {
    changedOnly: false,
    only,
    apply: false,
    test: false,
  });
  // A pass may edit the callers of what it simplifies, beyond the run's files: a patch that
  // reaches a protected path is left out, as the model's own write there would be refused.
  const isProtected = protectedPathTest(policy.permissions.protected_paths);
  const allowed = result.applied.kept.filter(({ proposal }) =>
    proposal.edits.every((edit) => !isProtected(edit.path)),
  );
  const written = await applyPatches(place.tree, allowed, { write: true, testCommand: undefined });
  const patches = written.kept.map(({ proposal, price }) => ({
    pass: proposal.pass,
    title: proposal.title,
    path: proposal.path,
    line: proposal.line,
    points: price.cost.total,
  }));
  if (patches.length === 0) return { why, patches, commit: null };
  const message = ['aureus: simplify', '', ...patches.map((patch) => `- ${patch.title}`)].join(
    '\n',
  );
  if (!(await commitRunWork(place, message))) return { why, patches: [], commit: null };
  const head = await runGit(place.tree, ['rev-parse', 'HEAD']);
  return { why, patches, commit: head.stdout.toString('utf8').trim() };
}

/** Takes the simplification commit back: the branch and its files as verified before it. */
export async function undoReflection(settings: VerifySettings, reflection: Reflection) {
  if (reflection.commit === null) return;
  await runGit(settings.place.tree, ['reset', '--quiet', '--hard', `${reflection.commit}^`]);
}
