import { escapeMarkdown } from '../report/markdown-escape.js';
import { renderMarkdown } from '../report/render-markdown.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import type { PublishableRun, RunClaims } from './published-run.js';

/** The model's own summary is quoted, never rendered, and kept short. */
const MAX_SUMMARY_CHARACTERS = 2000;
/** The cost ledger AUREUS computed on the commits; the body stays well inside GitHub's 65,536. */
const MAX_LEDGER_BYTES = 40 * 1024;

/** A vote's reasons in the body: enough to read, far inside the body's bound. */
const MAX_VOTE_REASONS = 6;
const MAX_REASON_CHARACTERS = 240;

/**
 * The draft pull request's body. What AUREUS measured itself (the change's cost against the
 * budget, the findings) comes from its own check of the pushed commits; what only the run can
 * say (its tests, its tokens and dollars, its summary) is marked as the run's report, escaped,
 * so no text the model wrote mentions anyone, links another issue or renders as markup.
 */
export function pullRequestBody(dispatch: BuilderDispatch, run: PublishableRun): string {
  const { claims, report } = run;
  const tests =
    claims.tests === null
      ? 'no test command is set (`project.stack.test_command`)'
      : `the test command exited ${claims.tests.exitCode ?? 'without a code (timed out or killed)'}`;
  return [
    `Resolves #${dispatch.issue}`,
    '',
    `Built by the AUREUS builder, run \`${dispatch.runId}\`, from ${run.start.slice(0, 12)}. A draft: review it like any other change before marking it ready.`,
    '',
    `- **Status**: ${escapeMarkdown(claims.status)}`,
    `- **Cost**: ${report.cost.total} points of a ${report.budget.block}-point budget, verdict ${report.verdict} (AUREUS's own check of these commits)`,
    `- **Tests**: ${tests} (as the run reported)`,
    `- **Model**: ${claims.spend.calls} calls, ${claims.spend.inputTokens} input and ${claims.spend.outputTokens} output tokens, $${claims.spend.usd.toFixed(4)} (as the run reported)`,
    '',
    ...votesSection(claims.votes, claims.decidedBy),
    "**The run's summary** (written by the model):",
    '',
    `> ${escapeMarkdown(claims.summary.slice(0, MAX_SUMMARY_CHARACTERS))}`,
    '',
    renderMarkdown(report, { maxBytes: MAX_LEDGER_BYTES }),
  ].join('\n');
}

/** The four votes with their evidence, as the run reported them, escaped. */
function votesSection(votes: RunClaims['votes'], decidedBy: string): string[] {
  const named = [
    ['Correctness', votes.correctness],
    ['Test quality', votes.testQuality],
    ['Elegance', votes.elegance],
    ['Review (advisory)', votes.review],
  ] as const;
  return [
    `**The review votes** (as the run reported; ${escapeMarkdown(decidedBy)}):`,
    '',
    ...named.flatMap(([name, each]) => [
      `- **${name}**: ${escapeMarkdown(each.vote)}`,
      ...each.reasons
        .slice(0, MAX_VOTE_REASONS)
        .map((reason) => `  - ${escapeMarkdown(reason.slice(0, MAX_REASON_CHARACTERS))}`),
      ...(each.reasons.length > MAX_VOTE_REASONS
        ? [`  - and ${each.reasons.length - MAX_VOTE_REASONS} more (see the run's report.json)`]
        : []),
    ]),
    '',
  ];
}

export function refusalSummary(dispatch: BuilderDispatch, refusals: readonly string[]): string {
  return [
    `## AUREUS builder: run \`${dispatch.runId}\` refused`,
    '',
    `Nothing was pushed for issue #${dispatch.issue}:`,
    '',
    ...refusals.map((reason) => `- ${escapeMarkdown(reason)}`),
    '',
  ].join('\n');
}
