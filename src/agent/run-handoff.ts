import { join } from 'node:path';
import { runGit } from '../git/git-runner.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { isParsedJsonObject } from '../model/json.js';
import { runBranch } from './run-identity.js';
import {
  isRunState,
  loadState,
  NOTE_FILES,
  type NoteFile,
  type RunState,
  readNote,
  runDir,
  saveState,
  writeNote,
} from './run-memory.js';
import { gitText, placeRun } from './run-setup.js';

/**
 * A run handed from the process that planned it to the one that acts on it (the builder's plan
 * and Act jobs): its state and notes out of one checkout, and into another at the same commit.
 */
export interface PlannedRun {
  readonly state: RunState;
  readonly notes: Readonly<Record<NoteFile, string>>;
}

/** The state and notes of run `id`, as it stands. */
export async function plannedRunOf(root: string, id: string): Promise<PlannedRun> {
  const memory = await runDir(root, id);
  return {
    state: await loadState(memory),
    notes: {
      'goals.md': await readNote(memory, 'goals.md'),
      'progress.md': await readNote(memory, 'progress.md'),
      'decisions.md': await readNote(memory, 'decisions.md'),
      'blockers.md': await readNote(memory, 'blockers.md'),
    },
  };
}

/**
 * Places a run another process planned in this checkout, ready for `resume`: its state must be
 * for `task`, start at this checkout's HEAD and stand at Act with a plan and nothing acted on
 * (no checkpoint, no verification). A `continuation` (a run that stopped for want of budget and
 * goes on with a larger one) has acted: its branch is placed at the stop's `head` (a descendant
 * of the start commit, already in this repository) and its iteration count and phase are kept,
 * so the run's caps count the whole run. Its checkpoints stay behind with the process that took
 * them: rollbacks go back no further than where it goes on. The state is rebuilt field by field
 * (the branch is the one the task and id name); the trajectory goes on from the plan's. Answers
 * the run's id, or why the run cannot go on.
 */
export async function placePlannedRun(
  root: string,
  given: {
    readonly state: unknown;
    readonly notes: unknown;
    readonly trajectory: Uint8Array | null;
  },
  task: string,
  continuation?: { readonly head: string | null },
): Promise<{ readonly id: string } | { readonly refusal: string }> {
  const { state } = given;
  if (!isRunState(state)) return { refusal: 'it holds no run state.' };
  const head = await gitText(root, ['rev-parse', 'HEAD']);
  const acted = state.checkpoints.length > 0 || state.iteration > 0;
  const refusal =
    state.task !== task
      ? 'its task is not the approved issue.'
      : state.startCommit !== head
        ? `it started at ${state.startCommit.slice(0, 12)}, and this checkout is at ${head.slice(0, 12)}.`
        : state.phase === 'gather' || !isParsedJsonObject(state.plan)
          ? 'it has no accepted plan.'
          : continuation === undefined && (acted || state.phase !== 'act')
            ? 'it acted already.'
            : ![state.turns, state.tokens, state.dollars, state.spentPoints].every(
                  (value) => Number.isFinite(value) && value >= 0,
                )
              ? 'its spend is not a count.'
              : !Number.isSafeInteger(state.iteration) || state.iteration < 0
                ? 'its iteration is not a count.'
                : null;
  if (refusal !== null) return { refusal };
  const at = continuation?.head ?? head;
  if (at !== head) {
    const descends = await runGit(root, ['merge-base', '--is-ancestor', head, at], {
      okExitCodes: [0, 1, 128],
    });
    if (descends.exitCode !== 0)
      return {
        refusal: `its work at ${at.slice(0, 12)} does not go on from ${head.slice(0, 12)}.`,
      };
  }
  const placed = await placeRun(root, state.id, runBranch(task, state.id), at);
  const restored: RunState = {
    id: state.id,
    task,
    branch: placed.branch,
    startCommit: head,
    phase: state.phase,
    turns: state.turns,
    iteration: continuation === undefined ? 0 : state.iteration,
    spentPoints: state.spentPoints,
    tokens: state.tokens,
    dollars: state.dollars,
    checkpoints: [],
    plan: state.plan,
  };
  await saveState(placed.memory, restored);
  for (const note of NOTE_FILES) {
    const text: unknown = isParsedJsonObject(given.notes) ? given.notes[note] : undefined;
    if (typeof text === 'string') await writeNote(placed.memory, note, text);
  }
  if (given.trajectory !== null)
    await writeFileAtomic(join(placed.memory, 'trajectory.jsonl'), given.trajectory);
  return { id: state.id };
}
