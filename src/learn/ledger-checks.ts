import { blockingRuleOfReason, isOverBudgetReason, ruleOfReason } from '../gate/review.js';
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
  readonly verdict: string;
  readonly cost: Readonly<Record<string, number>>;
  readonly total: number;
  /** Rules its reasons name, blocking or not. */
  readonly fired: readonly string[];
  /** Rules whose findings blocked it. */
  readonly blockedBy: readonly string[];
  readonly overBudget: boolean;
  /** It kept only its first reasons: a rule may have fired unseen. */
  readonly reasonsCut: boolean;
  readonly override: { readonly by: string; readonly reason: string } | null;
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
    const check = learnedCheck(ledger, entry.lineNumber, entry.at, at, head, record);
    const change = head ?? text(record.content) ?? entry.hash;
    const known = byChange.get(change);
    // A change checked again counts once; the check that let it through is the one to keep.
    if (known === undefined || (known.override === null && check.override !== null))
      byChange.set(change, check);
  }
  return [...byChange.values()];
}

function learnedCheck(
  ledger: string,
  line: number,
  atText: string,
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
      at: atText,
      ledger,
      line,
      commit: head,
      ...(override === null ? {} : override),
      cost: total,
    },
    at,
    head,
    verdict: text(record.verdict) ?? '',
    cost,
    total,
    fired: unique(reasons.flatMap((reason) => ruleOfReason(reason) ?? [])),
    blockedBy: unique(reasons.flatMap((reason) => blockingRuleOfReason(reason) ?? [])),
    overBudget: reasons.some(isOverBudgetReason),
    reasonsCut: typeof record.reasonsTotal === 'number' && record.reasonsTotal > reasons.length,
    override,
  };
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
