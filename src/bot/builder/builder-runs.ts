import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../memory/atomic-write.js';
import { errnoCode } from '../../memory/errno-code.js';

/**
 * The App's record of an issue's builder run, one file per issue in the App's data folder:
 * what makes one run per issue at a time (THREATS row 13) and what `/aureus cancel` stops.
 * Jobs of one repository run one at a time in the App's queue, so read-then-write does not race.
 */
export type BuilderRunStatus = 'queued' | 'running' | 'cancelled' | 'finished' | 'failed';

export interface BuilderRun {
  readonly runId: string;
  readonly deliveryId: string;
  readonly issue: number;
  readonly requesterId: number;
  readonly snapshotHash: string;
  readonly status: BuilderRunStatus;
  /** The dispatched workflow run, when GitHub said which. */
  readonly workflowRunId?: number;
  /** The tracking comment. */
  readonly commentId?: number;
  /** The caps the run was dispatched with (`--budget`, or a later approval's). */
  readonly maxUsd?: number;
  readonly maxPoints?: number;
  /**
   * The id of the stopped workflow run an approval let go on: one continuation per stop, so a
   * second approval of the same stop dispatches nothing while the first goes on.
   */
  readonly continuedFrom?: string;
}

const ACTIVE: ReadonlySet<BuilderRunStatus> = new Set(['queued', 'running']);

export function isActive(run: BuilderRun | undefined): run is BuilderRun {
  return run !== undefined && ACTIVE.has(run.status);
}

function runPath(dataDir: string, repositoryId: number, issue: number): string {
  return join(dataDir, 'builder', String(repositoryId), `issue-${issue}.json`);
}

export async function readBuilderRun(
  dataDir: string,
  repositoryId: number,
  issue: number,
): Promise<BuilderRun | undefined> {
  let text: string;
  try {
    text = await readFile(runPath(dataDir, repositoryId, issue), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isBuilderRun(parsed)) throw new Error(`unreadable builder run record for issue ${issue}`);
  return parsed;
}

export async function writeBuilderRun(
  dataDir: string,
  repositoryId: number,
  run: BuilderRun,
): Promise<void> {
  const path = runPath(dataDir, repositoryId, run.issue);
  await mkdir(join(dataDir, 'builder', String(repositoryId)), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(run)}\n`);
}

function isBuilderRun(value: unknown): value is BuilderRun {
  if (typeof value !== 'object' || value === null) return false;
  const record: Record<string, unknown> = { ...value };
  return (
    typeof record.runId === 'string' &&
    typeof record.deliveryId === 'string' &&
    typeof record.issue === 'number' &&
    typeof record.status === 'string' &&
    ['queued', 'running', 'cancelled', 'finished', 'failed'].includes(record.status)
  );
}
