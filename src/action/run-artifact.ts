import { lstat, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ImplementReport } from '../agent/implement-run.js';
import { containedDisk } from '../git/contained-file.js';
import { runGit } from '../git/git-runner.js';
import { errnoCode } from '../memory/errno-code.js';
import { fileKind } from '../memory/file-kind.js';
import { writeOutputFile } from '../memory/output-file.js';
import { storePaths } from '../memory/store-paths.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/**
 * The folder the builder job hands to the publishing job (through actions/upload-artifact):
 * the run's commits as a git bundle, its report and its trajectory. The publishing job treats
 * every byte of it as the model's: it reads only these names, as regular files, within bounds.
 */
export const RUN_BUNDLE = 'run.bundle';
export const RUN_REPORT = 'report.json';
export const RUN_TRAJECTORY = 'trajectory.jsonl';

/** report.json: the run's ImplementReport and the dispatch it answers. */
export type RunRecord = ImplementReport & {
  readonly issue: number;
  readonly run_id: string;
  readonly requester: number;
  readonly snapshot: string;
};

/**
 * `output-dir` inside the workspace, created folder by folder: a path the checkout holds as a
 * link or a file is refused, so the run's files never land where a committed link points.
 */
export async function outputFolder(workspace: string, given: string): Promise<string> {
  const parts = given.split('/').filter((part) => part !== '' && part !== '.');
  if (isAbsolute(given) || given.includes('\\') || parts.includes('..') || parts.length === 0)
    throw new AureusError(
      `the input output-dir is ${JSON.stringify(given)}, not a folder inside the workspace.`,
      'give a relative path such as aureus-run.',
    );
  let folder = workspace;
  for (const part of parts) {
    folder = join(folder, part);
    const stats = await lstat(folder).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (stats === undefined) await mkdir(folder);
    else if (!stats.isDirectory())
      throw new AureusError(
        `${folder} is ${fileKind(stats)}; the run's files go only into a real folder.`,
        'point output-dir at another path, or remove what is there.',
      );
  }
  return folder;
}

/** Writes the bundle (when the run committed anything), report.json and trajectory.jsonl. */
export async function writeRunArtifact(
  settings: { readonly root: string; readonly folder: string; readonly workspace: string },
  report: ImplementReport,
  dispatch: BuilderDispatch,
  scrub: (text: string) => string,
): Promise<void> {
  const place = {
    setting: 'the output-dir input',
    within: { folder: settings.workspace, name: 'the workspace' },
  };
  const write = (name: string, data: string | Uint8Array) =>
    writeOutputFile(join(settings.folder, name), data, place);
  if (report.commits.length > 0) await write(RUN_BUNDLE, await bundleOf(settings.root, report));
  const record: RunRecord = {
    ...report,
    issue: dispatch.issue,
    run_id: dispatch.runId,
    requester: dispatch.requester,
    snapshot: dispatch.snapshot,
  };
  await write(RUN_REPORT, `${JSON.stringify(record, null, 2)}\n`);
  // The run's own commands could have replaced the file (a link to the process's environment, a
  // huge file): it is read as the artifact's files are, no link, bounded, and scrubbed again.
  const runDir = join(storePaths(settings.root).localDir, 'runs', report.id);
  const trajectory = readArtifactFile(runDir, RUN_TRAJECTORY, MAX_TRAJECTORY_BYTES);
  await write(
    RUN_TRAJECTORY,
    'bytes' in trajectory
      ? scrub(trajectory.bytes.toString('utf8'))
      : `${JSON.stringify({ kind: 'unreadable', reason: trajectory.refusal })}\n`,
  );
}

/** A trajectory is one line per call and action: far below this for any run the caps allow. */
const MAX_TRAJECTORY_BYTES = 32 * 1024 * 1024;

/** `git bundle create` of the run's branch from its start commit, written beside nothing. */
async function bundleOf(root: string, report: ImplementReport): Promise<Buffer> {
  const scratch = await mkdtemp(join(tmpdir(), 'aureus-bundle-'));
  try {
    const path = join(scratch, RUN_BUNDLE);
    await runGit(root, [
      'bundle',
      'create',
      '--quiet',
      path,
      `refs/heads/${report.branch}`,
      `^${report.startCommit}`,
    ]);
    return await readFile(path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The publishing job's folder: absolute (the runner's temp folder) or in the workspace. */
export function artifactFolder(workspace: string, given: string): string {
  return isAbsolute(given) ? given : resolve(workspace, given);
}

/** One file of the artifact: a regular file at most `maxBytes` long, or a refusal saying why. */
export function readArtifactFile(
  folder: string,
  name: string,
  maxBytes: number,
): { readonly bytes: Buffer } | { readonly refusal: string } {
  const read = containedDisk(folder, maxBytes).read(name);
  if (read.ok) return { bytes: read.bytes };
  return {
    refusal: `the run's ${name} cannot be read: ${read.reason} (a regular file of at most ${maxBytes} bytes is expected).`,
  };
}
