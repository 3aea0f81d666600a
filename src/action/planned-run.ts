import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ImplementReport, placePlannedRun, plannedRunOf } from '../agent/implement-run.js';
import { payloadField as field } from '../github/payload-field.js';
import { writeOutputFile } from '../memory/output-file.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { RUN_BUNDLE, RUN_TRAJECTORY, readArtifactFile } from './run-artifact.js';
import { importBundle } from './run-bundle-checks.js';

/**
 * What the builder's plan job leaves for its Act job beside report.json and trajectory.jsonl:
 * the run's state (its plan, spend, branch and start commit) and the notes it kept, so the Act
 * job goes on from the plan as `aureus implement --resume` does, with nothing acted on yet.
 */
export const PLANNED_RUN = 'run-state.json';

/** A plan, its state and four notes: far below this for any plan the model may submit. */
const MAX_PLANNED_BYTES = 4 * 1024 * 1024;
const MAX_TRAJECTORY_BYTES = 32 * 1024 * 1024;
/** As the publish job reads a run's bundle. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

/** Writes the planned run's state and notes, scrubbed, into the output folder. */
export async function writePlannedRun(
  settings: { readonly root: string; readonly folder: string; readonly workspace: string },
  report: ImplementReport,
  dispatch: BuilderDispatch,
  scrub: (text: string) => string,
): Promise<void> {
  const record = {
    issue: dispatch.issue,
    run_id: dispatch.runId,
    snapshot: dispatch.snapshot,
    // The commit a stopped run's work ends at (its bundle's head), null when it acted on nothing.
    head: report.commits.at(-1) ?? null,
    ...JSON.parse(scrub(JSON.stringify(await plannedRunOf(settings.root, report.id)))),
  };
  await writeOutputFile(join(settings.folder, PLANNED_RUN), `${JSON.stringify(record)}\n`, {
    setting: 'the output-dir input',
    within: { folder: settings.workspace, name: 'the workspace' },
  });
}

/**
 * The plan job's run placed again in this checkout, ready for `resume`, when its state answers
 * this dispatch and the approved task (placePlannedRun says what else it must be). Anything else
 * is refused: the run plans again only through a new dispatch. Answers the run's id.
 */
export async function restorePlannedRun(
  root: string,
  planDir: string,
  dispatch: BuilderDispatch,
  task: string,
): Promise<string> {
  const refuse = (why: string) =>
    new AureusError(
      `the plan job's run cannot be continued: ${why}`,
      "run the builder's Act job after its plan job in the same workflow run, with plan-dir where actions/download-artifact put the plan job's artifact.",
    );
  const read = readArtifactFile(planDir, PLANNED_RUN, MAX_PLANNED_BYTES);
  if ('refusal' in read) throw refuse(read.refusal);
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    throw refuse(`${PLANNED_RUN} is not JSON.`);
  }
  if (
    field(parsed, 'issue') !== dispatch.issue ||
    field(parsed, 'run_id') !== dispatch.runId ||
    field(parsed, 'snapshot') !== dispatch.snapshot
  )
    throw refuse(`${PLANNED_RUN} answers another dispatch.`);
  // The trajectory goes on from the plan's: one audit of the whole run.
  const trajectory = readArtifactFile(planDir, RUN_TRAJECTORY, MAX_TRAJECTORY_BYTES);
  // A continuation's plan is the stop the plan job checked and handed on: the run acted already,
  // and goes on from its commits, which the bundle beside the state must end at.
  const continuation =
    dispatch.resumeFrom === undefined
      ? undefined
      : { head: await importedHead(root, planDir, dispatch, field(parsed, 'head'), refuse) };
  const placed = await placePlannedRun(
    root,
    {
      state: field(parsed, 'state'),
      notes: field(parsed, 'notes'),
      trajectory: 'bytes' in trajectory ? trajectory.bytes : null,
    },
    task,
    continuation,
  );
  if ('refusal' in placed) throw refuse(placed.refusal);
  return placed.id;
}

/** The stop's commits fetched from its bundle into this checkout: their head, or null if none. */
async function importedHead(
  root: string,
  planDir: string,
  dispatch: BuilderDispatch,
  head: unknown,
  refuse: (why: string) => AureusError,
): Promise<string | null> {
  if (head === null) return null;
  if (typeof head !== 'string') throw refuse(`${PLANNED_RUN} names no commit of the stop.`);
  const bundle = readArtifactFile(planDir, RUN_BUNDLE, MAX_BUNDLE_BYTES);
  if ('refusal' in bundle) throw refuse(bundle.refusal);
  const scratch = await mkdtemp(join(tmpdir(), 'aureus-continue-'));
  try {
    // git reads a private copy: nothing in the artifact folder is opened by path again.
    const copy = join(scratch, RUN_BUNDLE);
    await writeFile(copy, bundle.bytes);
    const imported = await importBundle(root, copy, dispatch.runId);
    if ('refusal' in imported) throw refuse(imported.refusal);
    if (imported.head !== head)
      throw refuse(
        `its bundle ends at ${imported.head.slice(0, 12)}, not at the stop's ${head.slice(0, 12)}.`,
      );
    return head;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
