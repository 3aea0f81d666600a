import type { BudgetAllocation } from './budget-allocation.js';
import type { LearnProposal } from './learn-proposal.js';
import type { Evidence } from './ledger-checks.js';

/**
 * `aureus learn`'s text: the proposal as a unified diff of the policy, then the evidence of
 * every changed setting (which ledger lines, who, why, when), the team's budget and the
 * calibration with its error before and after. Ledger text is data: control characters are
 * shown as `?`.
 */
export function renderProposal(proposal: LearnProposal, diff: string, shown: string): string {
  const out: string[] = [];
  const cut = proposal.historyCut ? ' (the newest ones; older history was left out)' : '';
  out.push(
    `aureus learn: ${proposal.checks} checked changes in the last ${proposal.windowDays} days, ${proposal.commits} commits of history${cut}.`,
  );
  if (proposal.edits.length === 0) out.push(`\nNo change to ${shown} to propose.`);
  else {
    out.push(
      `\nProposed change to ${shown} (not applied: a policy change needs a maintainer's review; aureus check flags it as a policy change):\n`,
      diff.trimEnd(),
      '\nEvidence:',
    );
    for (const edit of proposal.edits) {
      out.push(
        `  ${edit.path.join('.')}: ${JSON.stringify(edit.from)} → ${JSON.stringify(edit.to)} (${edit.kind})`,
        `    ${printable(edit.why)}`,
      );
      for (const evidence of edit.evidence) out.push(`      ${evidenceLine(evidence)}`);
    }
  }
  out.push('', ...allocationLines(proposal), '', ...calibrationLines(proposal));
  return `${out.join('\n')}\n`;
}

function evidenceLine(evidence: Evidence): string {
  const parts = [
    evidence.at,
    evidence.commit === null ? 'no commit recorded' : evidence.commit.slice(0, 12),
    ...(evidence.cost === undefined ? [] : [`${evidence.cost} points`]),
    `${evidence.ledger}#${evidence.line}`,
  ];
  const who =
    evidence.by === undefined ? '' : `  overridden by ${evidence.by}: ${evidence.reason ?? '?'}`;
  return printable(`${parts.join('  ')}${who}`);
}

function allocationLines({ allocation, windowDays }: LearnProposal): string[] {
  if (allocation === null)
    return [
      `Budget: too few checked changes in ${windowDays} days to suggest one (learning.min_changes).`,
    ];
  const { percentiles, suggested } = allocation;
  const figures = Object.entries(percentiles)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
  return [
    `Budget from the team's ${allocation.changes} changes: ${figures} points; suggested budgets.change warn ${suggested.warn}, block ${suggested.block}.`,
    `  The dearest change used ${Math.round(allocation.usedShare * 100)} % of today's block line.${tookAlternatives(allocation)}`,
  ];
}

/** What users did when blocked: overrode, or changed the change (an alternative) or dropped it. */
function tookAlternatives({ blocked, overridden }: BudgetAllocation): string {
  if (blocked === 0) return ' None was blocked.';
  return ` Of the ${blocked} blocked, ${overridden} went through by an override; the other ${blocked - overridden} were changed or dropped.`;
}

function calibrationLines({ calibration }: LearnProposal): string[] {
  if (calibration === null)
    return [
      'Calibration: too few checked commits of this history are old enough to have their rework known (learning.min_changes, learning.rework_days).',
    ];
  const factors = Object.entries(calibration.factors)
    .map(([category, factor]) => `${category} ${factor ?? '-'}`)
    .join(', ');
  const builder =
    calibration.builder === null
      ? []
      : [
          `  The builder's estimates missed its branches' cost by ${calibration.builder.meanAbsoluteVariance} points on average over ${calibration.builder.runs} runs.`,
        ];
  const rework = calibration.samples.reduce((sum, sample) => sum + sample.rewritten, 0);
  return [
    `Calibration on ${calibration.samples.length} checked commits (${calibration.tooRecent} too recent for their rework to be known): ${rework} of their lines were rewritten or reverted later.`,
    `  Fitted on the first ${calibration.trained}, judged on the last ${calibration.heldOut}: mean absolute error ${calibration.errorBefore} points with the policy's weights, ${calibration.errorAfter} fitted.`,
    `  Factors (- where no change priced anything): ${factors}.`,
    `  ${calibration.verdict}`,
    ...builder,
  ];
}

function printable(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** GitHub refuses bodies over 65,536 characters; the evidence in a body stops well before. */
const MAX_BODY_EVIDENCE = 60_000;

/**
 * `aureus learn`'s text as a Markdown code block for a pull request or issue body: shown, never
 * rendered, so ledger text (override reasons, names) mentions and links no one. The fence is
 * longer than any run of backticks in the text; past 60,000 characters the text stops at a line
 * end, and `cut` says so.
 */
export function proposalCodeBlock(text: string): { readonly block: string; readonly cut: boolean } {
  const cut = text.length > MAX_BODY_EVIDENCE;
  const shown = cut ? text.slice(0, text.lastIndexOf('\n', MAX_BODY_EVIDENCE) + 1) : text;
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return { block: `${fence}text\n${shown}${fence}`, cut };
}
