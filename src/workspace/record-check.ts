import { appendToJournal } from '../memory/journal.js';
import { ensureLocalDir, storePaths } from '../memory/store-paths.js';
import type { Report } from '../model/report.js';

/**
 * Appends the check to this machine's ledger (.aureus/local/ledger.jsonl, git-ignored): the
 * estimate the cost model later learns from. The shared ledger is written by CI and the App.
 */
export async function recordCheck(root: string, report: Report): Promise<void> {
  await ensureLocalDir(root);
  const count = (status: string) =>
    report.findings.filter((finding) => finding.status === status).length;
  await appendToJournal(storePaths(root).ledger, {
    kind: 'check',
    source: report.change.source,
    base: report.change.baseSha,
    head: report.change.headSha,
    verdict: report.verdict,
    cost: { ...report.cost },
    budget: { block: report.budget.block, remaining: report.budget.remaining },
    blocking: report.findings
      .filter((finding) => finding.blocking)
      .map((finding) => finding.fingerprint),
    findings: { new: count('new'), worsened: count('worsened'), baseline: count('baseline') },
    policyChanged: report.policy.changed,
    toolVersion: report.tool.version,
  });
}
