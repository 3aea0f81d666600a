import { appendNote, readNote } from './run-memory.js';
import type { Scrub } from './safety/secret-scrubber.js';

/**
 * The reflection turn: every cost_thresholds.reflect_every_actions actions the loop shows the
 * model its goals and progress notes and asks it, through the `reflect` tool alone, whether to
 * continue, plan again or stop. Its decisions and blockers go to decisions.md and blockers.md,
 * so a resumed run and the person reviewing it read what the model had settled and what held
 * it up.
 */

export type ReflectDecision = 'continue' | 'replan' | 'stop';

export interface ReflectAnswer {
  readonly decision: ReflectDecision;
  readonly decisions: readonly string[];
  readonly blockers: readonly string[];
}

export async function reflectionPrompt(
  memory: string,
  actions: number,
  scrub: Scrub,
): Promise<string> {
  const [goals, progress] = await Promise.all([
    readNote(memory, 'goals.md'),
    readNote(memory, 'progress.md'),
  ]);
  return scrub(
    [
      `Reflection after ${actions} actions. Your goals (goals.md):`,
      goals.trim() || '(none)',
      'Your progress (progress.md):',
      progress.trim() || '(no plan yet)',
      'Call reflect now: continue as planned, replan (you go back to gather and submit_plan again) or stop; list the decisions you have taken and anything that blocks the task.',
    ].join('\n\n'),
  );
}

/** The `reflect` input as its schema (phase-tools.ts) let it through. */
export function reflectAnswerOf(input: unknown): ReflectAnswer {
  const record: Record<string, unknown> =
    typeof input === 'object' && input !== null ? { ...input } : {};
  const texts = (value: unknown) =>
    Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : [];
  const decision = record.decision;
  return {
    decision: decision === 'replan' || decision === 'stop' ? decision : 'continue',
    decisions: texts(record.decisions),
    blockers: texts(record.blockers),
  };
}

export async function recordReflection(
  memory: string,
  answer: ReflectAnswer,
  actions: number,
  scrub: Scrub,
): Promise<void> {
  const section = (items: readonly string[]) =>
    `## After ${actions} actions (${answer.decision})\n\n${items.map((item) => `- ${scrub(item)}`).join('\n')}\n\n`;
  if (answer.decisions.length > 0)
    await appendNote(memory, 'decisions.md', section(answer.decisions));
  if (answer.blockers.length > 0) await appendNote(memory, 'blockers.md', section(answer.blockers));
}
