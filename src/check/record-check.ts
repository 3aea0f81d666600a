import { localLedgerAnchor } from '../git/ledger-anchor.js';
import { appendToJournal } from '../memory/journal.js';
import { compactionWhenDue } from '../memory/journal-retention.js';
import { ensureLocalDir, storePaths } from '../memory/store-paths.js';
import type { JsonObject } from '../model/json.js';
import type { Report } from '../model/report.js';
import { NEW_MODULE } from '../pricing/price-structure.js';

/**
 * Appends the check to this machine's ledger (.aureus/local/ledger.jsonl, git-ignored): the
 * estimate the cost model later learns from. The shared ledger is written by CI and the App.
 */
/** A blocked change let through by the person running the check, with their reason. */
export interface Override {
  readonly by: string;
  readonly reason: string;
}

export async function recordCheck(
  root: string,
  report: Report,
  override: Override | null = null,
  contentId: string | null = null,
  retentionDays = 0,
): Promise<void> {
  await ensureLocalDir(root);
  const record = ledgerRecord(report, override);
  const entry = contentId === null ? record : { ...record, content: contentId };
  const ledger = storePaths(root).ledger;
  const anchor = await localLedgerAnchor(root);
  await appendToJournal(ledger, entry, {
    anchor,
    whileLocked: compactionWhenDue(ledger, retentionDays, anchor),
  });
}

/**
 * A record stays far below the journal's 1 MiB line limit whatever the change: a change with
 * 10,000 findings keeps the first reasons and fingerprints and says how many there were (the
 * full list is in the report itself).
 */
const MAX_RECORDED_REASONS = 50;
const MAX_RECORDED_FINGERPRINTS = 500;
/** The costliest files of a change: the ones a reader acts on; the rest is in the report. */
const MAX_RECORDED_FILE_COSTS = 20;
/** The dependencies and modules a change adds, by name: what an ADR is proposed for. */
const MAX_RECORDED_ADDITIONS = 20;

/** The ledger's record of one check: the same fields in the local and the shared ledger. */
export function ledgerRecord(report: Report, override: Override | null = null): JsonObject {
  const count = (status: string) =>
    report.findings.filter((finding) => finding.status === status).length;
  const blocking = report.findings
    .filter((finding) => finding.blocking)
    .map((finding) => finding.fingerprint);
  return {
    kind: 'check',
    source: report.change.source,
    base: report.change.baseSha,
    head: report.change.headSha,
    verdict: report.verdict,
    cost: { ...report.cost },
    budget: { block: report.budget.block, remaining: report.budget.remaining },
    blocking: blocking.slice(0, MAX_RECORDED_FINGERPRINTS),
    ...(blocking.length > MAX_RECORDED_FINGERPRINTS ? { blockingTotal: blocking.length } : {}),
    findings: { new: count('new'), worsened: count('worsened'), baseline: count('baseline') },
    rules: ruleCounts(report),
    ...foundRecord(report),
    ...additionsRecord(report),
    fileCosts: fileCosts(report),
    ...(report.core === null ? {} : { core: { ...report.core } }),
    policyChanged: report.policy.changed,
    ...(report.policy.changed
      ? { policyChanges: report.policy.changes.slice(0, MAX_RECORDED_REASONS) }
      : {}),
    ...policyApprovalRecord(report),
    // Evidence: why the gate decided as it did, in its own words.
    reasons: report.reasons.slice(0, MAX_RECORDED_REASONS),
    ...(report.reasons.length > MAX_RECORDED_REASONS
      ? { reasonsTotal: report.reasons.length }
      : {}),
    override: override === null ? null : { by: override.by, reason: override.reason },
    toolVersion: report.tool.version,
  };
}

/**
 * A loosening of the policy and who approved it for this head (who, account id, why, the
 * settings), when the change loosens the policy: the record a later reader audits.
 */
function policyApprovalRecord(report: Report): JsonObject {
  const loosened = report.policy.loosens;
  if (loosened.length === 0) return {};
  const approval = report.policy.approval;
  return {
    policyLoosened: loosened.slice(0, MAX_RECORDED_REASONS),
    policyApproval:
      approval === null ? null : policyApprovalEntry(report, approval, report.change.headSha),
  };
}

/**
 * The `policyApproval` of a record: who approved the loosening `report` shows, why, the commit
 * they approved and, for an approving review, its pull request.
 */
export function policyApprovalEntry(
  report: Report,
  approval: { readonly by: string; readonly accountId: number; readonly reason: string },
  head: string | null,
  pullRequest?: number,
): JsonObject {
  return {
    by: approval.by,
    accountId: approval.accountId,
    reason: approval.reason,
    head,
    settings: report.policy.loosens.slice(0, MAX_RECORDED_REASONS),
    ...(pullRequest === undefined ? {} : { pullRequest }),
  };
}

/**
 * Findings by rule and status, one row per rule: the trend of each rule over checks. A list,
 * not an object keyed by rule: a rule id is text a baseline may carry, and `__proto__` is text.
 */
function ruleCounts(report: Report): JsonObject[] {
  const rows = new Map<string, { new: number; worsened: number; baseline: number }>();
  for (const { ruleId, status } of report.findings) {
    const row = rows.get(ruleId) ?? { new: 0, worsened: 0, baseline: 0 };
    row[status] += 1;
    rows.set(ruleId, row);
  }
  return [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule, row]) => ({ rule, ...row }));
}

/** Points per file of the change, costliest first (repository-wide items have no file). */
function fileCosts(report: Report): JsonObject[] {
  const points = new Map<string, number>();
  for (const item of report.costItems)
    if (item.path !== null) points.set(item.path, (points.get(item.path) ?? 0) + item.points);
  return [...points]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_RECORDED_FILE_COSTS)
    .map(([path, total]) => ({ path, points: Math.round(total * 100) / 100 }));
}

/**
 * Every finding at the head, as rule and fingerprint: a fingerprint one check of a line of
 * history has and the next one lacks was fixed (the patterns registry counts these). Bounded
 * like `blocking`; `foundTotal` says when the list was cut, and a cut list proves no fix.
 */
function foundRecord(report: Report): JsonObject {
  const found = report.findings.map(({ ruleId, fingerprint }) => ({ rule: ruleId, fingerprint }));
  return {
    found: found.slice(0, MAX_RECORDED_FINGERPRINTS),
    ...(found.length > MAX_RECORDED_FINGERPRINTS ? { foundTotal: found.length } : {}),
  };
}

/** The dependencies and core modules the change adds, by name (first ones, then how many). */
function additionsRecord(report: Report): JsonObject {
  const dependencies = report.dependencies.map((dependency) => dependency.name);
  const modules = report.costItems.flatMap((item) =>
    item.category === 'modules' && item.detail.startsWith(NEW_MODULE)
      ? [item.detail.slice(NEW_MODULE.length)]
      : [],
  );
  return {
    newDependencies: dependencies.slice(0, MAX_RECORDED_ADDITIONS),
    newModules: modules.slice(0, MAX_RECORDED_ADDITIONS),
    ...(dependencies.length > MAX_RECORDED_ADDITIONS
      ? { newDependenciesTotal: dependencies.length }
      : {}),
    ...(modules.length > MAX_RECORDED_ADDITIONS ? { newModulesTotal: modules.length } : {}),
  };
}
