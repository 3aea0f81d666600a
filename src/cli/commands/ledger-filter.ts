import { ruleOfReason } from '../../gate/review.js';
import type { JournalEntry } from '../../memory/journal-format.js';
import { AureusError } from '../../model/errors.js';
import { isRecord, type JsonObject } from '../../model/json.js';
import type { CliOptions } from './command-context.js';

/**
 * `aureus ledger query`'s filters, all optional and combined with AND. A value no line could
 * ever hold (a date that is no date, a verdict AUREUS never gives) is refused with the values
 * accepted: an empty answer to a typo would read as "nothing happened". A kind is open: a newer
 * AUREUS may write kinds this one does not know.
 */
export interface LedgerFilter {
  readonly kind?: string;
  /** Lower-cased: matched as a case-insensitive substring of the record's people. */
  readonly actor?: string;
  readonly issue?: number;
  readonly verdict?: string;
  readonly rule?: string;
  /** Milliseconds: the line's `at` is at or after `since`, and before `before`. */
  readonly since?: number;
  readonly before?: number;
  readonly overridden: boolean;
}

/** yes, no, or unsure: --rule found nowhere in reasons the record kept only the first of. */
export type FilterMatch = 'yes' | 'no' | 'unsure';

const VERDICTS = ['pass', 'warn', 'block', 'incomplete'];

export function ledgerFilter(options: CliOptions): LedgerFilter {
  const since = options.since === undefined ? undefined : parseDate('--since', options.since);
  const until = options.until === undefined ? undefined : parseDate('--until', options.until);
  const kind = nonEmpty('kind', options.kind);
  const rule = nonEmpty('rule', options.rule);
  const actor = nonEmpty('actor', options.actor)?.toLowerCase();
  const filter: LedgerFilter = {
    ...(kind === undefined ? {} : { kind }),
    ...(rule === undefined ? {} : { rule }),
    ...(actor === undefined ? {} : { actor }),
    ...(options.issue === undefined ? {} : { issue: parseIssue(options.issue) }),
    ...(options.verdict === undefined ? {} : { verdict: parseVerdict(options.verdict) }),
    ...(since === undefined ? {} : { since: since.start }),
    // A day given alone is the whole day; a time is included to the millisecond.
    ...(until === undefined ? {} : { before: until.end }),
    overridden: options.overridden === true,
  };
  if (filter.since !== undefined && filter.before !== undefined && filter.since >= filter.before)
    throw new AureusError(
      `--since ${options.since} is not before --until ${options.until}: no line could match.`,
      'give the earlier date to --since and the later one to --until.',
    );
  return filter;
}

export function matchEntry(filter: LedgerFilter, entry: JournalEntry): FilterMatch {
  const { record } = entry;
  const at = Date.parse(entry.at);
  const others =
    (filter.kind === undefined || record.kind === filter.kind) &&
    (filter.verdict === undefined || record.verdict === filter.verdict) &&
    (filter.issue === undefined || record.issue === filter.issue) &&
    (filter.since === undefined || at >= filter.since) &&
    (filter.before === undefined || at < filter.before) &&
    (!filter.overridden || isRecord(record.override) || isRecord(record.policyApproval)) &&
    (filter.actor === undefined ||
      people(record).some((person) => person.toLowerCase().includes(filter.actor ?? '')));
  if (!others) return 'no';
  if (filter.rule === undefined) return 'yes';
  const reasons = Array.isArray(record.reasons) ? record.reasons : [];
  if (reasons.some((reason) => typeof reason === 'string' && ruleOfReason(reason) === filter.rule))
    return 'yes';
  // Past its reasons limit a record keeps the first ones and their total: the rule may be among
  // those left out, which a "no" would hide.
  const total = record.reasonsTotal;
  return typeof total === 'number' && total > reasons.length ? 'unsure' : 'no';
}

/** Who overrode, approved, requested or cancelled: the person fields AUREUS records. */
function people(record: JsonObject): string[] {
  const named = [record.actor, record.override, record.policyApproval].map((value) =>
    isRecord(value) ? value.by : value,
  );
  return named.filter((value): value is string => typeof value === 'string');
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value?.trim() === '')
    throw new AureusError(`--${name} is empty.`, `name the ${name} to look for, or leave it out.`);
  return value;
}

function parseIssue(value: string): number {
  if (/^[1-9][0-9]{0,15}$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  throw new AureusError(
    `--issue ${JSON.stringify(value)} is not an issue number.`,
    'give the number of the issue, as in --issue 42.',
  );
}

function parseVerdict(value: string): string {
  if (VERDICTS.includes(value)) return value;
  throw new AureusError(
    `--verdict ${JSON.stringify(value)} is not a verdict.`,
    `use one of ${VERDICTS.join(', ')}.`,
  );
}

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time, UTC unless it names an offset (the ledger's times are UTC):
 * `start` is its first millisecond, `end` the first one after it (the next day for a date).
 */
function parseDate(option: string, value: string): { start: number; end: number } {
  const parts = DATE.exec(value);
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = 'Z'] = parts ?? [];
  const days = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const valid =
    parts !== null &&
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= days &&
    Number(hour ?? 0) <= 23 &&
    Number(minute ?? 0) <= 59 &&
    Number(second) <= 59;
  const start = valid
    ? Date.parse(
        `${year}-${month}-${day}T${hour ?? '00'}:${minute ?? '00'}:${second}${fraction}${zone}`,
      )
    : Number.NaN;
  if (Number.isNaN(start))
    throw new AureusError(
      `${option} ${JSON.stringify(value)} is not a date.`,
      `give an ISO 8601 date or date-time, such as 2026-11-21, 2026-11-21T14:30 or 2026-11-21T14:30:00+02:00 (UTC unless an offset is given).`,
    );
  return { start, end: hour === undefined ? start + 86_400_000 : start + 1 };
}
