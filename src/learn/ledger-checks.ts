import { blockingRuleOfReason, isOverBudgetReason, ruleOfReason } from '../gate/review.js';
import type { JournalEntry } from '../memory/journal-format.js';
import { isRecord, type JsonObject, type JsonValue } from '../model/json.js';
import { DAY_MS, type LedgerLine } from './learn-input.js';

/** Where a piece of evidence comes from: a ledger line, and what it says. */
export interface Evidence {
  readonly at: string;
  readonly ledger: string;
  readonly line: number;
  readonly commit: string | null;
  readonly by?: string;
  readonly reason?: string;
  readonly cost?: number;
}

/** A check in the window, as learning reads it. */
export interface LearnedCheck {
  readonly evidence: Evidence;
  readonly at: number;
  readonly head: string | null;
  /** The commit the change started from; with `head`, what ties checks into a line of history. */
  readonly base: string | null;
  readonly verdict: string;
  readonly cost: Readonly<Record<string, number>>;
  readonly total: number;
  /** Rules its reasons name, blocking or not. */
  readonly fired: readonly string[];
  /** Rules with new or worsened findings in it, blocking or not. */
  readonly newRules: readonly string[];
  /**
   * Every finding at its head, by rule and fingerprint; null when the record lacks them (written
   * before checks kept them) or kept only the first ones: such a check proves no fix.
   */
  readonly found: readonly { readonly rule: string; readonly fingerprint: string }[] | null;
  /** Rules whose findings blocked it. */
  readonly blockedBy: readonly string[];
  readonly overBudget: boolean;
  /** It kept only its first reasons: a rule may have fired unseen. */
  readonly reasonsCut: boolean;
  readonly override: { readonly by: string; readonly reason: string } | null;
  /** The hashes of every ledger line that recorded this change, the kept one first. */
  readonly hashes: readonly string[];
  /** The kept line's record, as written. */
  readonly record: JsonObject;
}

/**
 * The checks of every ledger written within `days` before `now`, each change once: the local,
 * shared and App ledgers may all record the same head, a head may be checked again to
 * override its block, and a hook may check the same staged content twice (`content`). The commit a hook's check became is taken from the
 * `commit` line post-commit appended.
 */
export function checksInWindow(
  lines: readonly LedgerLine[],
  now: number,
  days: number,
): LearnedCheck[] {
  const since = now - days * DAY_MS;
  const became = new Map<string, string>();
  for (const { entry } of lines)
    if (entry.record.kind === 'commit' && typeof entry.record.check === 'string')
      became.set(entry.record.check, text(entry.record.commit) ?? '');
  const byChange = new Map<string, LearnedCheck>();
  for (const { ledger, entry } of lines) {
    const { record } = entry;
    const at = Date.parse(entry.at);
    if (record.kind !== 'check' || !(at >= since && at <= now) || !isRecord(record.cost)) continue;
    const head = text(record.head) ?? (became.get(entry.hash) || null);
    const check = learnedCheck(ledger, entry, at, head, record);
    const change = head ?? text(record.content) ?? entry.hash;
    const known = byChange.get(change);
    // A change checked again counts once; the check that let it through is the one to keep.
    if (known === undefined || (known.override === null && check.override !== null))
      byChange.set(change, { ...check, hashes: [entry.hash, ...(known?.hashes ?? [])] });
    else byChange.set(change, { ...known, hashes: [...known.hashes, entry.hash] });
  }
  return [...byChange.values()];
}

function learnedCheck(
  ledger: string,
  entry: JournalEntry,
  at: number,
  head: string | null,
  record: JsonObject,
): LearnedCheck {
  const reasons = (Array.isArray(record.reasons) ? record.reasons : []).flatMap((reason) =>
    typeof reason === 'string' ? [reason] : [],
  );
  const cost = numbers(record.cost);
  const override = isRecord(record.override)
    ? { by: text(record.override.by) ?? '?', reason: text(record.override.reason) ?? '?' }
    : null;
  const total = cost.total ?? 0;
  return {
    evidence: {
      at: entry.at,
      ledger,
      line: entry.lineNumber,
      commit: head,
      ...(override === null ? {} : override),
      cost: total,
    },
    at,
    head,
    base: text(record.base),
    verdict: text(record.verdict) ?? '',
    cost,
    total,
    fired: unique(reasons.flatMap((reason) => ruleOfReason(reason) ?? [])),
    newRules: newRules(record, reasons),
    found: foundOf(record),
    blockedBy: unique(reasons.flatMap((reason) => blockingRuleOfReason(reason) ?? [])),
    overBudget: reasons.some(isOverBudgetReason),
    reasonsCut: typeof record.reasonsTotal === 'number' && record.reasonsTotal > reasons.length,
    override,
    hashes: [entry.hash],
    record,
  };
}

/**
 * The rules with new or worsened findings: the per-rule counts a check records, or, in a record
 * written before it kept them, the rules its reasons name as new or worsened.
 */
function newRules(record: JsonObject, reasons: readonly string[]): string[] {
  if (Array.isArray(record.rules))
    return unique(
      record.rules.flatMap((row) =>
        isRecord(row) &&
        typeof row.rule === 'string' &&
        (Number(row.new) > 0 || Number(row.worsened) > 0)
          ? [row.rule]
          : [],
      ),
    );
  return unique(
    reasons.flatMap((reason) =>
      /^(?:new|worsened) /.test(reason) ? (ruleOfReason(reason) ?? []) : [],
    ),
  );
}

function foundOf(record: JsonObject): LearnedCheck['found'] {
  if (!Array.isArray(record.found) || typeof record.foundTotal === 'number') return null;
  return record.found.flatMap((row) =>
    isRecord(row) && typeof row.rule === 'string' && typeof row.fingerprint === 'string'
      ? [{ rule: row.rule, fingerprint: row.fingerprint }]
      : [],
  );
}

function numbers(value: JsonValue | undefined): Record<string, number> {
  const result: Record<string, number> = {};
  if (!isRecord(value)) return result;
  for (const [key, item] of Object.entries(value))
    if (typeof item === 'number' && Number.isFinite(item)) result[key] = item;
  return result;
}

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
