import { counted } from '../critic/wording.js';
import { simplifyReviewMarker } from '../github/simplify-review.js';
import type { SimplificationFinding } from '../reflexion/findings-in-other-languages.js';
import { fenceFor } from './delivery-plan.js';
import type { VerifiedPatch } from './verify-proposal.js';

/** Findings listed in a review; they are advice, and a long list of them is noise. */
const MAX_FINDINGS = 20;

/** GitHub takes 65,536 characters in a review body; the rest of the list is left to the CLI. */
const MAX_BODY_CHARACTERS = 60_000;

export interface ReviewText {
  readonly headSha: string;
  /** Why reflexion ran on this change. */
  readonly why: string;
  readonly suggested: readonly VerifiedPatch[];
  readonly committed: readonly VerifiedPatch[];
  /** What happened to the commit: `Committed as …`, or why it was not made. */
  readonly commitLine: string | undefined;
  /** Patches shown as diffs, with the sentence that introduces them. */
  readonly listed: readonly VerifiedPatch[];
  readonly listedLine: string;
  /** Opportunities in languages without patches yet, by location. */
  readonly findings: readonly SimplificationFinding[];
}

/** Lines the patches take out of the files, net (a whole deleted file counts all its lines). */
export function removedLines(patches: readonly VerifiedPatch[]): number {
  let removed = 0;
  for (const patch of patches)
    for (const edit of patch.proposal.edits)
      removed += lineCount(edit.before) - (edit.after === null ? 0 : lineCount(edit.after));
  return Math.max(0, removed);
}

/** The review's body: what reflexion found for this head and where each patch went. */
export function reviewBody(text: ReviewText): string {
  const all = [...text.suggested, ...text.committed, ...text.listed];
  const points = all.reduce((sum, patch) => sum + patch.price.cost.total, 0);
  const lines = [
    simplifyReviewMarker(text.headSha),
    all.length === 0
      ? `**AUREUS simplify** ran on this change because ${text.why}, and has no verified patch for it.`
      : `**AUREUS simplify**: ${counted(all.length, 'verified simplification')} for this change, because ${text.why}. Each one applies cleanly, adds no type error and lowers the price; together ${round(points)} points.`,
    '',
  ];
  if (text.suggested.length > 0)
    lines.push(`- ${text.suggested.length} suggested on the lines below.`);
  if (text.commitLine !== undefined) lines.push(`- ${text.commitLine}`);
  if (text.listed.length > 0) lines.push(`- ${text.listedLine}`);
  if (text.findings.length > 0) {
    lines.push('', 'In Python and Go, no patch yet; to simplify by hand:');
    for (const finding of text.findings.slice(0, MAX_FINDINGS))
      lines.push(`- ${finding.title} (\`${finding.path}:${finding.line}\`)`);
    if (text.findings.length > MAX_FINDINGS)
      lines.push(
        `- and ${text.findings.length - MAX_FINDINGS} more: run \`aureus simplify\` on the branch.`,
      );
  }
  return appendDiffs(lines.join('\n'), text.listed);
}

/** Patches as collapsed diffs after `head`, as many as fit; a line says how many did not. */
export function appendDiffs(head: string, patches: readonly VerifiedPatch[]): string {
  let body = head;
  for (const [index, patch] of patches.entries()) {
    const fence = fenceFor(patch.patch);
    const block = `\n\n<details><summary>${escapeHtml(patch.proposal.title)} · ${round(patch.price.cost.total)} points</summary>\n\n${fence}diff\n${patch.patch.trimEnd()}\n${fence}\n</details>`;
    if (body.length + block.length > MAX_BODY_CHARACTERS) {
      const left = patches.length - index;
      return `${body}\n\n${counted(left, 'more patch', 'more patches')} did not fit here: run \`aureus simplify\` on the branch to see them.`;
    }
    body += block;
  }
  return body;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Titles name code (`<T>`, `&&`): shown as text inside the summary's HTML. */
function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
