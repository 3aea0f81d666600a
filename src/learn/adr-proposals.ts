import { AureusError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import { type ArchitecturalChange, adrText } from './adr-text.js';
import type { LedgerLine } from './learn-input.js';
import { checksInWindow, type LearnedCheck } from './ledger-checks.js';

/** The highest number `.aureus/decisions/NNNN-<slug>.md` names hold (four to nine digits). */
const LAST_NUMBER = 999_999_999;

/** What `.aureus/decisions/` holds already: read to avoid duplicates, never to judge a change. */
export interface ExistingDecisions {
  /** The highest NNNN of a file there, 0 when none. */
  readonly highest: number;
  /** Every ledger hash a decision there names. */
  readonly named: ReadonlySet<string>;
}

/** One proposed `.aureus/decisions/NNNN-<slug>.md`. */
export interface AdrProposal {
  readonly number: number;
  readonly fileName: string;
  readonly title: string;
  /** The ledger lines of the change it stands for, the one it describes first (its Evidence names them). */
  readonly hashes: readonly string[];
  readonly changes: readonly ArchitecturalChange[];
  readonly text: string;
}

/** Rules whose findings are an abstraction: one let through by an override is a decision. */
const ABSTRACTION_RULES = new Set([
  'premature_abstraction',
  'di_container',
  'plugin_registry',
  'event_bus',
  'single_backend_repository',
]);

/** A title stays a heading and a file name a reader can scan. */
const MAX_TITLE_CHARS = 72;
const MAX_SLUG_CHARS = 48;

/**
 * An ADR for every checked change of the ledgers that made an architectural change — a new
 * dependency, a new core module, an abstraction let through by an override, a policy change —
 * and that no decision names yet (by any ledger line recording it), oldest first, numbered after
 * the highest decision there.
 */
export function adrProposals(
  lines: readonly LedgerLine[],
  existing: ExistingDecisions,
  now: number,
): AdrProposal[] {
  const checks = checksInWindow(lines, now, Number.POSITIVE_INFINITY).sort((a, b) => a.at - b.at);
  // A pull request pushed again is checked again from the same base with the same additions:
  // one decision, whose Evidence names every check of it, so a later push is not proposed anew.
  const groups = new Map<
    string,
    { check: LearnedCheck; changes: ArchitecturalChange[]; hashes: string[] }
  >();
  for (const check of checks) {
    const changes = architecturalChanges(check);
    if (changes.length === 0) continue;
    const key = JSON.stringify([check.base ?? check.hashes[0], changes]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { check, changes, hashes: [...check.hashes] });
    else group.hashes.push(...check.hashes);
  }
  const proposals: AdrProposal[] = [];
  for (const { check, changes, hashes } of groups.values()) {
    if (hashes.some((hash) => existing.named.has(hash))) continue;
    const number = existing.highest + proposals.length + 1;
    if (number > LAST_NUMBER)
      throw new AureusError(
        `.aureus/decisions/ already has a decision numbered ${existing.highest}: the next would pass ${LAST_NUMBER}, the highest number a decision's name holds (at most nine digits).`,
        'renumber the decisions in .aureus/decisions/ from 0001 (their Evidence sections keep them apart), then run the command again.',
      );
    const title = titleOf(changes);
    proposals.push({
      number,
      fileName: `${String(number).padStart(4, '0')}-${slugOf(title)}.md`,
      title,
      hashes,
      changes,
      text: adrText({ number, title, check, changes, hashes }),
    });
  }
  return proposals;
}

function architecturalChanges(check: LearnedCheck): ArchitecturalChange[] {
  const { record, override } = check;
  const changes: ArchitecturalChange[] = [];
  const named = (key: string, cost: string, kind: 'dependency' | 'module') => {
    const names = strings(record[key]);
    const total = typeof record[`${key}Total`] === 'number' ? Number(record[`${key}Total`]) : 0;
    if (names.length > 0) changes.push({ kind, names, more: Math.max(0, total - names.length) });
    // A record written before checks kept the names: the cost says something was added.
    else if (!Array.isArray(record[key]) && (check.cost[cost] ?? 0) > 0)
      changes.push({ kind, names: [], more: 0 });
  };
  named('newDependencies', 'dependencies', 'dependency');
  named('newModules', 'modules', 'module');
  const abstractions = check.blockedBy.filter((rule) => ABSTRACTION_RULES.has(rule));
  if (override !== null && abstractions.length > 0)
    changes.push({ kind: 'abstraction', names: abstractions, more: 0 });
  if (record.policyChanged === true)
    changes.push({ kind: 'policy', names: strings(record.policyChanges), more: 0 });
  return changes;
}

function titleOf(changes: readonly ArchitecturalChange[]): string {
  const parts = changes.map(({ kind, names }) => {
    const list = names.length === 0 ? '' : ` ${names.slice(0, 3).join(', ')}`;
    if (kind === 'dependency') return `Add dependency${list}`;
    if (kind === 'module') return `Add core module${list}`;
    if (kind === 'abstraction')
      return `Keep the abstraction an override let through (${names.join(', ')})`;
    return 'Change the policy';
  });
  const title = parts.join('; ');
  const chars = Array.from(title);
  return chars.length <= MAX_TITLE_CHARS
    ? title
    : `${chars.slice(0, MAX_TITLE_CHARS - 1).join('')}…`;
}

/**
 * The file name's words: ASCII letters and digits of the title, lower case, joined by `-`,
 * bounded. Nothing else survives, so no title (a dependency named `../../x`, say) makes a path.
 */
export function slugOf(title: string): string {
  const words = title
    .normalize('NFKD')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word.slice(0, MAX_SLUG_CHARS) : `${slug}-${word}`;
    if (next.length > MAX_SLUG_CHARS) break;
    slug = next;
  }
  return slug === '' ? 'decision' : slug;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.flatMap((item) => (typeof item === 'string' && item !== '' ? [item] : []))
    : [];
}
