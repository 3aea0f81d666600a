import { checkChange } from '../check/check-change.js';
import { runGit } from '../git/git-runner.js';
import type { Policy } from '../model/policy.js';
import type { Report } from '../model/report.js';
import { BUILDER_IDENTITY, type RunPlace } from './safety/checkpoints.js';
import { runInSandbox } from './safety/child-environment.js';
import type { CommandRun } from './safety/run-command.js';
import type { Scrub } from './safety/secret-scrubber.js';
import { truncateText } from './tools/truncate-text.js';

/**
 * Verify: the run's work is committed on its branch, the project's test command runs in the
 * run's tree, and the whole branch since the start commit is checked by the same function
 * `aureus check --base <start> --head <branch>` runs, under the base commit's policy.
 */

export interface VerifySettings {
  readonly root: string;
  readonly place: RunPlace;
  readonly branch: string;
  readonly startCommit: string;
  readonly policy: Policy;
  readonly toolVersion: string;
  readonly alsoSecret: readonly string[];
  readonly scrub: Scrub;
  readonly maxOutputBytes: number;
  readonly testTimeoutMs: number;
}

export interface Verification {
  readonly passed: boolean;
  readonly tests: { readonly argv: readonly string[]; readonly run: CommandRun } | null;
  readonly report: Report;
  /** The git tree verified: the same tree failing twice is a run without progress. */
  readonly tree: string;
  /** What the model is told: the failures' evidence, scrubbed and truncated. */
  readonly evidence: string[];
}

/** Commits whatever the run's tree holds that its branch does not; true when a commit was made. */
export async function commitRunWork(place: RunPlace, message: string): Promise<boolean> {
  await runGit(place.tree, ['add', '--all', '--', '.']);
  const staged = await runGit(place.tree, ['diff', '--cached', '--quiet'], { okExitCodes: [0, 1] });
  if (staged.exitCode === 0) return false;
  await runGit(place.tree, ['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', message], {
    env: BUILDER_IDENTITY,
  });
  return true;
}

export async function verifyRun(settings: VerifySettings): Promise<Verification> {
  const { place, policy, scrub } = settings;
  await commitRunWork(place, 'Builder: work in progress, verified next');
  const evidence: string[] = [];
  const argv = testArgv(policy.project.stack.test_command);
  let tests: Verification['tests'] = null;
  if (argv !== null) {
    const run = await runInSandbox(argv, {
      cwd: place.tree,
      runDir: place.dir,
      alsoSecret: settings.alsoSecret,
      timeoutMs: settings.testTimeoutMs,
      maxOutputBytes: settings.maxOutputBytes,
    });
    tests = { argv, run };
    if (run.exitCode !== 0) {
      const output = truncateText(`${run.stdout}\n${run.stderr}`, settings.maxOutputBytes);
      evidence.push(
        `${argv.join(' ')} failed (${run.timedOut ? 'timed out' : `exit ${String(run.exitCode)}`}):\n${scrub(output)}`,
      );
    }
  }
  const report = await checkChange(
    settings.root,
    { kind: 'range', base: settings.startCommit, head: settings.branch },
    { cwd: settings.root, toolVersion: settings.toolVersion, policyGate: { kind: 'warn' } },
  );
  if (report.verdict === 'block' || report.verdict === 'incomplete') {
    evidence.push(
      `aureus check: ${report.verdict}, ${report.cost.total} points of ${report.budget.block}:\n${report.reasons.map(scrub).join('\n')}`,
    );
  }
  const tree = (await runGit(place.tree, ['rev-parse', 'HEAD^{tree}'])).stdout
    .toString('utf8')
    .trim();
  return { passed: evidence.length === 0, tests, report, tree, evidence };
}

function testArgv(command: readonly string[]): readonly string[] | null {
  return command.length === 0 ? null : command;
}
