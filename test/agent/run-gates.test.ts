import { describe, expect, it } from '@jest/globals';
import {
  actionPoints,
  budgetGate,
  costGate,
  type GateContext,
  phaseGate,
  runGates,
  tierGate,
} from '../../src/agent/action-gates.js';
import type { ToolDefinition } from '../../src/agent/tool-contract.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';

const policy = defaultPolicy();

function context(overrides: Partial<GateContext> = {}): GateContext {
  return {
    policy,
    phase: 'gather',
    spentPoints: 0,
    planAllocation: null,
    approval: 'none',
    ...overrides,
  };
}

const fileWrite: ToolDefinition = {
  spec: { name: 'file_write', description: 'write a file', inputSchema: { type: 'object' } },
  tier: 1,
  phases: ['act'],
  preview: async () => ({ kind: 'read' }),
  apply: async () => ({ ok: true, output: null }),
};

describe('the gates before every action', () => {
  it('phase: a tool offered only in Act is refused during Gather, with the phase to use', () => {
    const refusal = phaseGate(fileWrite, context());
    expect(refusal).toMatchObject({ ok: false, refusedBy: 'phase' });
    expect(refusal?.hint).toContain('act');
    expect(phaseGate(fileWrite, context({ phase: 'act' }))).toBeNull();
  });

  it('cost: action_warn logs, above action_block refuses', () => {
    const { action_warn, action_block } = policy.cost_thresholds;
    expect(costGate(action_warn - 1, context())).toEqual({ refusal: null, warn: false });
    expect(costGate(action_warn, context())).toEqual({ refusal: null, warn: true });
    expect(costGate(action_block + 1, context()).refusal).toMatchObject({ refusedBy: 'cost' });
  });

  it("cost: an action's price is its tier's points plus its file effects'", () => {
    expect(actionPoints(policy, 2, 3)).toBe(policy.pricing.tool.tier_2 + 3);
  });

  it("budget: the run may not pass budgets.change.block nor the plan's allocation with its margin", () => {
    const block = policy.budgets.change.block;
    expect(budgetGate(1, context({ spentPoints: block }))).toMatchObject({ refusedBy: 'budget' });
    expect(budgetGate(1, context({ spentPoints: block - 1 }))).toBeNull();
    expect(budgetGate(30, context({ spentPoints: 100, planAllocation: 100 }))).toMatchObject({
      refusedBy: 'budget',
    });
    expect(budgetGate(20, context({ spentPoints: 100, planAllocation: 100 }))).toBeNull();
  });

  it('budget: a run already past its limits may still read, verify and delete code', () => {
    const over = context({ spentPoints: policy.budgets.change.block + 50, planAllocation: 10 });
    expect(budgetGate(0, over)).toBeNull();
    expect(budgetGate(-12, over)).toBeNull();
    expect(budgetGate(1, over)).toMatchObject({ refusedBy: 'budget' });
  });

  it('tier: tier 3 never runs locally, above max_tier is refused, tier 2 needs --yes when not asked', () => {
    expect(tierGate(3, context({ approval: 'yes-flag' }))).toMatchObject({ refusedBy: 'tier' });
    expect(tierGate(2, context())).toMatchObject({ refusedBy: 'tier' });
    expect(tierGate(2, context({ approval: 'yes-flag' }))).toBeNull();
    const readOnly = { ...policy, permissions: { ...policy.permissions, max_tier: 0 } };
    expect(tierGate(1, context({ policy: readOnly }))).toMatchObject({ refusedBy: 'tier' });
  });

  it('tier: an interactive run asks the operator for each tier 2 action, after the tier gate, and only a yes lets it through', async () => {
    const shell: ToolDefinition = { ...fileWrite, tier: 2 };
    const asked: string[] = [];
    const answer = (yes: boolean) => async () => {
      asked.push(yes ? 'yes' : 'no');
      return yes;
    };
    const interactive = context({ phase: 'act', approval: 'ask' });
    const safety = async () => null;
    expect((await runGates(shell, 0, interactive, safety, answer(false))).refusal).toMatchObject({
      refusedBy: 'tier',
      error: 'The operator did not allow this tier 2 action.',
    });
    expect((await runGates(shell, 0, interactive, safety, answer(true))).refusal).toBeNull();
    // A tier 1 action, or one over permissions.max_tier, is never asked about.
    expect((await runGates(fileWrite, 0, interactive, safety, answer(true))).refusal).toBeNull();
    const readOnly = { ...policy, permissions: { ...policy.permissions, max_tier: 1 } };
    const over = await runGates(
      shell,
      0,
      { ...interactive, policy: readOnly },
      safety,
      answer(true),
    );
    expect(over.refusal).toMatchObject({ refusedBy: 'tier' });
    expect(asked).toEqual(['no', 'yes']);
    // Without an operator to answer, an interactive run denies.
    expect((await runGates(shell, 0, interactive, safety)).refusal).toMatchObject({
      refusedBy: 'tier',
    });
  });

  it('run in order and stop at the first refusal: safety is not asked once a cheaper gate refused', async () => {
    let safetyAsked = false;
    const safety = async () => {
      safetyAsked = true;
      return null;
    };
    const outOfPhase = await runGates(fileWrite, 0, context(), safety);
    expect(outOfPhase.decisions).toEqual([{ gate: 'phase', verdict: 'refused' }]);
    expect(safetyAsked).toBe(false);
    const overBlock = await runGates(
      fileWrite,
      policy.cost_thresholds.action_block,
      context({ phase: 'act' }),
      safety,
    );
    expect(overBlock.refusal).toMatchObject({ refusedBy: 'cost' });
    const allowed = await runGates(fileWrite, 0, context({ phase: 'act' }), safety);
    expect(allowed.refusal).toBeNull();
    expect(allowed.decisions.map((decision) => decision.gate)).toEqual([
      'phase',
      'cost',
      'budget',
      'tier',
      'safety',
    ]);
    expect(safetyAsked).toBe(true);
    const godClass = await runGates(fileWrite, 0, context({ phase: 'act' }), async () => ({
      ok: false,
      refusedBy: 'safety',
      error: 'a new god class',
    }));
    expect(godClass.refusal).toMatchObject({ refusedBy: 'safety' });
  });
});
