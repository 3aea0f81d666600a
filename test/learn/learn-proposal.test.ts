import { describe, expect, it } from '@jest/globals';
import type { LedgerLine } from '../../src/learn/learn-input.js';
import { learnProposal } from '../../src/learn/learn-proposal.js';
import type { JsonObject } from '../../src/model/json.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';

const NOW = Date.parse('2026-06-30T00:00:00Z');

/** A ledger line as the gate writes a check (ledger-checks.ts reads only these fields). */
function check(day: number, total: number, extra: JsonObject = {}): LedgerLine {
  const at = new Date(NOW - day * 86_400_000).toISOString();
  return {
    ledger: 'ledger.jsonl',
    entry: {
      at,
      prev: '',
      hash: `h${day}-${total}`,
      lineNumber: day,
      record: {
        kind: 'check',
        head: `c${day}`,
        verdict: 'pass',
        cost: { total },
        reasons: [],
        ...extra,
      },
    },
  };
}

const overBudget = (day: number, total: number, by: string, reason: string) =>
  check(day, total, {
    verdict: 'block',
    reasons: [
      `the change costs ${total} points, over the budget of 500 (budgets.change.block) by ${total - 500}.`,
    ],
    override: { by, reason },
  });

describe('learnProposal', () => {
  it('raises the change budget to the dearest of five overridden changes, warn in proportion', () => {
    const lines = [1, 2, 3, 4, 5].map((day) =>
      overBudget(day, 500 + day * 11, `dev${day}`, `why ${day}`),
    );
    const proposal = learnProposal({
      policy: defaultPolicy(),
      lines,
      commits: [],
      historyCut: false,
      now: NOW,
      windowDays: 90,
    });
    expect(proposal.edits.map(({ path, from, to }) => [path.join('.'), from, to])).toEqual([
      ['budgets.change.block', 500, 560],
      ['budgets.change.warn', 400, 448],
    ]);
    expect(proposal.edits[0]?.evidence.map((evidence) => [evidence.by, evidence.reason])).toEqual(
      [1, 2, 3, 4, 5].map((day) => [`dev${day}`, `why ${day}`]),
    );
  });

  it('leaves out overrides older than the window', () => {
    const lines = [1, 2, 3, 4, 95].map((day) => overBudget(day, 600, 'dev', 'why'));
    const proposal = learnProposal({
      policy: defaultPolicy(),
      lines,
      commits: [],
      historyCut: false,
      now: NOW,
      windowDays: 90,
    });
    expect(proposal.edits).toEqual([]);
  });

  it('tightens silent warn rules and a budget never used above half, not on too few checks', () => {
    const cheap = Array.from({ length: 20 }, (_, day) => check(day + 1, 10 + day * 5));
    const proposal = learnProposal({
      policy: defaultPolicy(),
      lines: cheap,
      commits: [],
      historyCut: false,
      now: NOW,
      windowDays: 90,
    });
    expect(proposal.edits.map(({ path, to }) => `${path.join('.')} → ${to}`)).toEqual([
      'forbidden_patterns.global_mutable_state.severity → error',
      'forbidden_patterns.reflection.severity → error',
      'forbidden_patterns.single_backend_repository.severity → error',
      'budgets.change.block → 110',
      'budgets.change.warn → 100',
    ]);
    const few = learnProposal({
      policy: defaultPolicy(),
      lines: cheap.slice(1),
      commits: [],
      historyCut: false,
      now: NOW,
      windowDays: 90,
    });
    expect(few.edits).toEqual([]);
  });

  it('vouches for no silence when a check kept only its first reasons', () => {
    const cut = Array.from({ length: 20 }, (_, day) =>
      check(day + 1, 300, day === 0 ? { reasonsTotal: 80 } : {}),
    );
    const proposal = learnProposal({
      policy: defaultPolicy(),
      lines: cut,
      commits: [],
      historyCut: false,
      now: NOW,
      windowDays: 90,
    });
    expect(proposal.edits.filter((edit) => edit.kind === 'tightening')).toEqual([]);
  });
});
