import { join } from 'node:path';
import { type ImplementReport, placePlannedRun, plannedRunOf } from '../agent/implement-run.js';
import { payloadField as field } from '../github/payload-field.js';
import { writeOutputFile } from '../memory/output-file.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { RUN_TRAJECTORY, readArtifactFile } from './run-artifact.js';

/**
 * What the builder's plan job leaves for its Act job beside report.json and trajectory.jsonl:
 * the run's state (its plan, spend, branch and start commit) and the notes it kept, so the Act
 * job goes on from the plan as `aureus implement --resume` does, with nothing acted on yet.
 */
export const PLANNED_RUN = 'run-state.json';

/** A plan, its state and four notes: far below this for any plan the model may submit. */
const MAX_PLANNED_BYTES = 4 * 1024 * 1024;
const MAX_TRAJECTORY_BYTES = 32 * 1024 * 1024;

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
  const placed = await placePlannedRun(
    root,
    {
      state: field(parsed, 'state'),
      notes: field(parsed, 'notes'),
      trajectory: 'bytes' in trajectory ? trajectory.bytes : null,
    },
    task,
  );
  if ('refusal' in placed) throw refuse(placed.refusal);
  return placed.id;
}
