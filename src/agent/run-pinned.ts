import type { Policy } from '../model/policy.js';
import { PLAN_MARGIN } from './action-gates.js';
import { allocationOf } from './plan-estimate.js';
import { type RunState, readNote } from './run-memory.js';

/**
 * The pinned part of every request: however much of the conversation is dropped or summarized,
 * the model always sees the task, its accepted plan (progress.md), the limits the gates hold it
 * to, and the decisions and blockers it noted at its reflections.
 */
export async function pinnedText(
  state: RunState,
  policy: Policy,
  memory: string,
  resumed: string,
): Promise<string> {
  const [progress, decisions, blockers] = await Promise.all([
    readNote(memory, 'progress.md'),
    readNote(memory, 'decisions.md'),
    readNote(memory, 'blockers.md'),
  ]);
  const allocation = allocationOf(state.plan, policy);
  const { budgets, cost_thresholds: limits, permissions } = policy;
  const rules = [
    `- The branch may cost at most ${budgets.change.block} points (budgets.change.block); it has cost ${state.spentPoints} so far.`,
    allocation === null
      ? '- No plan is accepted yet: gather, then submit_plan.'
      : `- The plan's allocation is ${allocation} points; the run may pass it by ${PLAN_MARGIN * 100}% at most.`,
    `- One action costs at most ${limits.action_block} points and writes at most ${limits.max_patch_files} files and ${limits.max_patch_bytes} bytes.`,
    `- Tools up to tier ${permissions.max_tier}; commands allowed: ${permissions.allowed_commands.map((argv) => argv.join(' ')).join('; ') || 'none'}.`,
    `- Never written: .git/, ${permissions.protected_paths.join(', ')}.`,
    `- Verification failures allowed: ${limits.max_iterations} (cost_thresholds.max_iterations).`,
  ];
  const notes = [
    progress.trim() === '' ? '' : `\n\nYour progress (progress.md):\n${progress.trim()}`,
    decisions.trim() === '' ? '' : `\n\nYour decisions (decisions.md):\n${decisions.trim()}`,
    blockers.trim() === '' ? '' : `\n\nWhat blocks you (blockers.md):\n${blockers.trim()}`,
  ];
  return `Task:\n${state.task}${resumed}\n\nBudgets and rules:\n${rules.join('\n')}${notes.join('')}`;
}
