import { escapeMarkdown } from '../report/markdown-escape.js';
import type { StoppedRun } from './published-run.js';

/**
 * What the tracking comment says of a run that stopped for want of budget, below its status
 * line: the plan and its estimate, what the run was given and spent, what it needs, where its
 * work is kept and how a writer lets it go on. The plan is the model's text, so it is escaped;
 * the figures are the run's report, but for the kept work's cost, which AUREUS checked itself.
 */
export function stoppedRunDetails(run: StoppedRun, kept: string | null): string {
  const { claims } = run;
  const usd = (amount: number) => `$${amount.toFixed(2)}`;
  const needs =
    run.stopped === 'points'
      ? `${claims.needsPoints ?? claims.estimatedPoints ?? 'more'} points`
      : `more than its ${usd(run.usdCap)} for the model`;
  return [
    'The run stopped before it would pass its budget, and keeps what it did: nothing is published until it finishes.',
    '',
    ...(claims.plan.length === 0
      ? ['**Plan**: none yet.']
      : [
          '**Plan** (the model’s):',
          ...claims.plan.map((step, n) => `${n + 1}. ${escapeMarkdown(step)}`),
        ]),
    '',
    `- **Estimate**: ${claims.estimatedPoints === null ? 'none' : `${claims.estimatedPoints} points`} for the change; the model's spend is bounded by the run's dollar cap, not estimated`,
    `- **Budget**: ${claims.budget ?? run.policyCaps.points} points, ${usd(run.usdCap)} for the model`,
    `- **Spent**: $${spentBy(run).usd.toFixed(4)} (${spentBy(run).tokens} tokens)${run.report === null ? '' : `; the work so far costs ${run.report.cost.total} points (AUREUS's own check)`}`,
    `- **Needs**: ${needs}`,
    `- **Work**: ${kept === null ? 'nothing was acted on: the run goes on from its plan' : `kept at \`${kept}\` (${run.head?.slice(0, 12) ?? ''}), checked as a finished run is, no pull request`}`,
    '',
    goOn(run),
  ].join('\n');
}

/** What the whole run spent: a report without its run's total says this invocation's. */
export function spentBy(run: StoppedRun): { readonly tokens: number; readonly usd: number } {
  const { spend, runSpend } = run.claims;
  return runSpend ?? { tokens: spend.inputTokens + spend.outputTokens, usd: spend.usd };
}

/** How to go on: a writer other than the requester approves more, within the policy's caps. */
function goOn(run: StoppedRun): string {
  const { claims, policyCaps } = run;
  const who = 'A person with write access other than the requester can let it go on from here';
  if (run.stopped === 'points') {
    const needed = claims.needsPoints ?? claims.estimatedPoints ?? policyCaps.points;
    return `${who} with \`/aureus approve-budget ${needed}pt\` (at most ${policyCaps.points}pt, \`budgets.change.block\`), or \`/aureus approve-budget $N\` for more model spend.`;
  }
  if (run.usdCap >= policyCaps.usd)
    return `It used the policy's own cap of $${policyCaps.usd} a run (\`cost_thresholds.max_usd_per_run\`), which no approval passes: raise it in the policy, or start a smaller run.`;
  return `${who} with \`/aureus approve-budget $${policyCaps.usd}\` (at most $${policyCaps.usd}, \`cost_thresholds.max_usd_per_run\`), or \`/aureus approve-budget <n>pt\` for a larger change.`;
}
