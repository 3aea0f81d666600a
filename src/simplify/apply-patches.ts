import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_MAX_BLOB_BYTES } from '../git/blob-limit.js';
import { containedDisk } from '../git/contained-file.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { AureusError } from '../model/errors.js';
import type { FileEdit } from '../reflexion/proposal.js';
import type { DroppedProposal, VerifiedPatch } from './verify-proposal.js';

export interface AppliedPatches {
  /** The verified patches that do not overlap (and, when written with tests, kept them green). */
  readonly kept: readonly VerifiedPatch[];
  /** Whether `kept` is now in the working tree. */
  readonly written: boolean;
  /** Verified patches left out, with why. */
  readonly notKept: readonly DroppedProposal[];
}

export interface ApplyOptions {
  readonly write: boolean;
  /** The project's test command, run after each written patch; undefined runs none. */
  readonly testCommand: readonly string[] | undefined;
}

/**
 * Writes the composed patches one at a time (compose-patches.ts chose them so that they go in
 * together); with a test command, a patch whose tests fail is taken back out before the next
 * goes in. Without `write`, every patch is kept and nothing is touched.
 */
export async function applyPatches(
  root: string,
  verified: readonly VerifiedPatch[],
  options: ApplyOptions,
): Promise<AppliedPatches> {
  if (options.testCommand !== undefined && options.testCommand.length === 0) {
    throw new AureusError(
      'no test command is known for this repository.',
      'set project.stack.test_command in .aureus/policy.yaml (for example [npm, test]), or leave out --test.',
    );
  }
  const kept: VerifiedPatch[] = [];
  const notKept: DroppedProposal[] = [];
  for (const patch of verified) {
    if (options.write) {
      const problem = await writePatch(root, patch.proposal.edits, options.testCommand);
      if (problem !== undefined) {
        notKept.push({ proposal: patch.proposal, reason: problem });
        continue;
      }
    }
    kept.push(patch);
  }
  return { kept, written: options.write, notKept };
}

/** Writes one patch, runs the tests, takes it back out if they fail; the problem, if any. */
async function writePatch(
  root: string,
  edits: readonly FileEdit[],
  testCommand: readonly string[] | undefined,
): Promise<string | undefined> {
  const disk = containedDisk(root, DEFAULT_MAX_BLOB_BYTES);
  for (const edit of edits) {
    const now = disk.read(edit.path);
    if (!now.ok || now.bytes.toString('utf8') !== edit.before)
      return `${edit.path} changed since it was read`;
  }
  await writeTexts(root, edits, 'after');
  if (testCommand === undefined) return undefined;
  const exitCode = await runTests(root, testCommand);
  if (exitCode === 0) return undefined;
  await writeTexts(root, edits, 'before');
  return `the test command (${testCommand.join(' ')}) failed with it (exit ${exitCode}); it was taken back out`;
}

async function writeTexts(
  root: string,
  edits: readonly FileEdit[],
  side: 'before' | 'after',
): Promise<void> {
  for (const edit of edits) {
    const text = edit[side];
    const path = join(root, edit.path);
    if (text === null) await rm(path, { force: true });
    else await writeFileAtomic(path, text);
  }
}

/** Runs the test command without a shell; its output goes to this process's stderr. */
function runTests(root: string, command: readonly string[]): Promise<number> {
  const [program, ...args] = command;
  if (program === undefined) return Promise.resolve(1);
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd: root, shell: false, stdio: ['ignore', 2, 2] });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
