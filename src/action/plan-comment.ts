import { escapeMarkdown } from '../report/markdown-escape.js';

/** The hidden marker of a run's plan comment, one per run. */
export function builderPlanMarker(runId: string): string {
  return `<!-- aureus:builder-plan ${runId} -->`;
}

/** What the plan comment shows: the model's words, and figures AUREUS priced or bounded. */
export interface ShownPlan {
  readonly runId: string;
  readonly steps: readonly string[];
  readonly files: readonly string[];
  /** AUREUS's own price of the plan's estimate, under the start commit's policy. */
  readonly points: number;
  readonly pointsBudget: number;
  /** What the run says it spent on the plan: shown, never trusted for anything else. */
  readonly spent: { readonly usd: number; readonly tokens: number };
  readonly usdCap: number;
  /**
   * A continuation's: the workflow run the plan was made in, before the run stopped for want of
   * budget. Its plan is not made again; the run goes on from the work it kept.
   */
  readonly continuedFrom?: number;
}

/** A step or a file name longer than this is cut: a plan is read at a glance. */
const MAX_SHOWN_CHARS = 300;
const MAX_FILES = 30;

/**
 * The comment posted on the issue before the run acts: its plan and estimate. Every word of the
 * plan is the model's, so each is escaped (no mention, link, HTML comment or marker survives).
 */
export function planComment(plan: ShownPlan): string {
  const shown = (text: string) =>
    escapeMarkdown(text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text);
  const files = plan.files.slice(0, MAX_FILES).map(shown);
  return [
    builderPlanMarker(plan.runId),
    `### AUREUS builder: the plan of run \`${plan.runId}\``,
    '',
    plan.continuedFrom === undefined
      ? 'The run planned this before acting on anything, and goes on to Act from it now; `/aureus cancel` stops it.'
      : `The run stopped for want of budget in workflow run ${plan.continuedFrom} and goes on now with a larger one, from this plan (not made again) and the work it kept; \`/aureus cancel\` stops it.`,
    '',
    ...(plan.steps.length === 0
      ? ['**Plan**: no steps given.']
      : ['**Plan** (the model’s):', ...plan.steps.map((step, n) => `${n + 1}. ${shown(step)}`)]),
    '',
    `**Files** (the model’s): ${files.length === 0 ? 'none named' : files.join(', ')}${plan.files.length > MAX_FILES ? `, and ${plan.files.length - MAX_FILES} more` : ''}`,
    '',
    `- **Estimate**: ${plan.points} points for the change (AUREUS's price of the plan's estimate under the start commit's policy), of the run's ${plan.pointsBudget}-point budget`,
    `- **Model spend**: $${plan.spent.usd.toFixed(4)} ${plan.continuedFrom === undefined ? 'on the plan' : 'so far'} (${plan.spent.tokens} tokens), of the run's $${plan.usdCap.toFixed(2)} cap; the rest of the run is bounded by that cap, not estimated`,
    '',
  ].join('\n');
}
