import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkChange } from '../check/check-change.js';
import { basePolicy } from '../check/policy-at-commit.js';
import { runGit } from '../git/git-runner.js';
import {
  commitSha,
  type FieldReader,
  nullable,
  object,
  PayloadShapeError,
  positiveInteger,
  text,
} from '../github/payload-field.js';
import { AureusError } from '../model/errors.js';
import type { Report } from '../model/report.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { RUN_BUNDLE, RUN_REPORT, readArtifactFile } from './run-artifact.js';
import { commitRefusals, importBundle } from './run-bundle-checks.js';

/** report.json is a few kilobytes; anything far larger is not one the builder wrote. */
const MAX_REPORT_BYTES = 1024 * 1024;
/** The bundle is compressed history of one run; the patch caps apply to what it unpacks to. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

const count: FieldReader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new PayloadShapeError(path, 'a number of at least 0');
  return value;
};

/** A vote as the run reported it; its words are the run's, shown escaped. */
const vote = object({
  vote: text,
  reasons: (value, path) => {
    if (!Array.isArray(value)) throw new PayloadShapeError(path, 'an array of strings');
    return value.map((each, index) => text(each, `${path}[${index}]`));
  },
});

/** What the publisher takes from report.json: the rest of it is never read. */
const readRecord = object({
  // The report format this publisher reads: another version is not a report it knows.
  schemaVersion: (value, path) => {
    if (value !== 2) throw new PayloadShapeError(path, 'the report format 2');
    return value;
  },
  issue: positiveInteger,
  run_id: text,
  requester: positiveInteger,
  snapshot: text,
  startCommit: commitSha,
  status: text,
  summary: text,
  spend: object({ calls: count, inputTokens: count, outputTokens: count, usd: count }),
  tests: nullable(object({ exitCode: nullable(count) })),
  votes: object({ correctness: vote, testQuality: vote, elegance: vote, review: vote }),
  decidedBy: text,
});

export type RunClaims = ReturnType<typeof readRecord>;

/** A run that passed every check: its commits, and AUREUS's own verdict on them. */
export interface PublishableRun {
  readonly claims: RunClaims;
  readonly start: string;
  readonly head: string;
  readonly report: Report;
}

export interface PublishSettings {
  readonly root: string;
  readonly folder: string;
  readonly policyPath: string;
  readonly toolVersion: string;
}

/**
 * The run in the artifact, validated without a model (THREATS rows 11–13, 17): the report
 * answers this dispatch and says the run is done; the start commit is an ancestor of the
 * default branch; the bundle verifies and holds one straight line of commits from it; no
 * protected path, link or override trailer, within the patch caps; and `checkChange` under
 * the start commit's policy says pass or warn. Any failure is a refusal with its reasons.
 */
export async function publishableRun(
  settings: PublishSettings,
  dispatch: BuilderDispatch,
): Promise<PublishableRun | { readonly refusals: readonly string[] }> {
  const { root } = settings;
  const read = readArtifactFile(settings.folder, RUN_REPORT, MAX_REPORT_BYTES);
  if ('refusal' in read) return { refusals: [read.refusal] };
  let claims: RunClaims;
  try {
    claims = readRecord(JSON.parse(read.bytes.toString('utf8')), RUN_REPORT);
  } catch (error) {
    return {
      refusals: [
        `the run's ${RUN_REPORT} is not the builder's report: ${String(error instanceof Error ? error.message : error)}.`,
      ],
    };
  }
  const expected = {
    issue: dispatch.issue,
    run_id: dispatch.runId,
    requester: dispatch.requester,
    snapshot: dispatch.snapshot,
  };
  const mismatch = (['issue', 'run_id', 'requester', 'snapshot'] as const).filter(
    (key) => claims[key] !== expected[key],
  );
  if (mismatch.length > 0)
    return {
      refusals: [`the run's report answers another dispatch (${mismatch.join(', ')} differ).`],
    };
  if (claims.status !== 'done')
    return { refusals: [`the run ended "${claims.status}": only a finished run is published.`] };
  const start = claims.startCommit;
  await requireHistory(root, dispatch.defaultBranch);
  const onDefault = await runGit(
    root,
    ['merge-base', '--is-ancestor', start, `refs/remotes/origin/${dispatch.defaultBranch}`],
    { okExitCodes: [0, 1, 128] },
  );
  if (onDefault.exitCode !== 0)
    return {
      refusals: [
        `the run's start commit ${start.slice(0, 12)} is not on the default branch ${dispatch.defaultBranch}.`,
      ],
    };
  // The start commit is the report's word, and the run could have rewritten it: a year-old start
  // would be judged by a year-old policy. The policy and baseline that judge it must be today's.
  const drifted = await rulesChangedSince(
    root,
    start,
    `refs/remotes/origin/${dispatch.defaultBranch}`,
    [settings.policyPath, BASELINE_PATH],
  );
  if (drifted.length > 0)
    return {
      refusals: [
        `${drifted.join(' and ')} at the run's start commit ${start.slice(0, 12)} differ from the default branch's: a run is judged by today's rules. Start it again.`,
      ],
    };
  const { policy } = await basePolicy(root, start, { policyPath: settings.policyPath, cwd: root });
  const bundle = readArtifactFile(settings.folder, RUN_BUNDLE, MAX_BUNDLE_BYTES);
  if ('refusal' in bundle) return { refusals: [bundle.refusal] };
  const scratch = await mkdtemp(join(tmpdir(), 'aureus-publish-'));
  try {
    // git reads a private copy: nothing in the artifact folder is opened by path again.
    const copy = join(scratch, RUN_BUNDLE);
    await writeFile(copy, bundle.bytes);
    const imported = await importBundle(root, copy, dispatch.runId);
    if ('refusal' in imported) return { refusals: [imported.refusal] };
    const head = imported.head;
    const refusals = await commitRefusals(root, { start, head }, policy, settings.policyPath);
    if (refusals.length > 0) return { refusals };
    const report = await checkChange(
      root,
      { kind: 'range', base: start, head },
      {
        policyPath: settings.policyPath,
        cwd: root,
        toolVersion: settings.toolVersion,
        policyGate: {
          kind: 'approval',
          how: 'a run never changes the policy; a person does, in a pull request of their own.',
        },
      },
    );
    if (report.verdict !== 'pass' && report.verdict !== 'warn')
      return {
        refusals: [
          `aureus check says ${report.verdict} (${report.cost.total} points of ${report.budget.block}).`,
          ...report.reasons,
        ],
      };
    return { claims, start, head, report };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Ancestry is only provable on full history, and the default branch must be known. */
async function requireHistory(root: string, defaultBranch: string): Promise<void> {
  const shallow = (await runGit(root, ['rev-parse', '--is-shallow-repository'])).stdout
    .toString('utf8')
    .trim();
  const known = await runGit(
    root,
    ['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${defaultBranch}^{commit}`],
    {
      okExitCodes: [0, 1],
    },
  );
  if (shallow === 'true' || known.exitCode !== 0)
    throw new AureusError(
      `the publishing job needs the full history of ${defaultBranch} to check where the run starts, and the checkout is ${shallow === 'true' ? 'shallow' : `without origin/${defaultBranch}`}.`,
      'set fetch-depth: 0 on actions/checkout in the publish job.',
    );
}

/** `.aureus/baseline.json`: its findings are allowed, so an old one would allow old findings. */
const BASELINE_PATH = '.aureus/baseline.json';

/** The paths whose blob (or absence) at `start` is not what `current` has. */
async function rulesChangedSince(
  root: string,
  start: string,
  current: string,
  paths: readonly string[],
): Promise<string[]> {
  const blob = async (commit: string, path: string) => {
    const answer = await runGit(root, ['rev-parse', '-q', '--verify', `${commit}:${path}`], {
      okExitCodes: [0, 1, 128],
    });
    return answer.exitCode === 0 ? answer.stdout.toString('utf8').trim() : null;
  };
  const changed: string[] = [];
  for (const path of paths)
    if ((await blob(start, path)) !== (await blob(current, path))) changed.push(path);
  return changed;
}
