import { runGit } from '../git/git-runner.js';
import type { ConversationBlock, ModelReply } from '../llm/model-client.js';
import { type MeteredModel, SpendCapReached } from '../llm/spend.js';
import { AureusError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import type { Policy } from '../model/policy.js';
import {
  actionPoints,
  approvalQuestion,
  type Refusal,
  runGates,
  type TierApproval,
} from './action-gates.js';
import { effectCritic } from './effect-critic.js';
import { effectPricer } from './effect-price.js';
import { phaseTools } from './phase-tools.js';
import { allocationOf, judgePlan } from './plan-estimate.js';
import { type ActionNote, runContext } from './run-context.js';
import { type RunState, recordAction, saveState, writeNote } from './run-memory.js';
import { pinnedText } from './run-pinned.js';
import { recordReflection, reflectAnswerOf, reflectionPrompt } from './run-reflection.js';
import { type RunSimplification, reflectOnRun, undoReflection } from './run-reflexion.js';
import { type Verification, type VerifySettings, verifyRun } from './run-verify.js';
import { carriedSecretRefusal } from './safety/carried-secret.js';
import { checkpointer } from './safety/checkpoints.js';
import type { FileEffect, ToolDefinition, ToolResult } from './tool-contract.js';
import { unofferedTool } from './tools/builder-tools.js';
import { scrubInput, scrubReply, scrubResult } from './tools/scrub-result.js';

/**
 * The run: Gather (read-only tools, then `submit_plan`) → Act (edits and commands, then
 * `request_verify`) → Verify (tests and `aureus check` of the branch) → back to Act on failure,
 * up to cost_thresholds.max_iterations → `finish`. Every action passes the gates first; every
 * decision goes to the trajectory and the state is saved after each action.
 */

export type RunStatus =
  | 'done'
  | typeof PLANNED
  | 'failed verification'
  | 'stopped by the iteration bound'
  | 'stopped: no progress'
  | `stopped at ${string}`
  | 'stopped: the model ended without finishing'
  | 'stopped by the model at a reflection';

/**
 * The run stops here when its change would pass the requester's budget (`--budget <n>pt`) but
 * not the policy's: more budget lets it go on, so it stops with its work instead of shrinking it.
 */
export const BUDGET_STOP = 'stopped at the requested budget';

/**
 * A run asked to stop after its plan (`stopAfterPlan`) ends here once the plan is accepted, with
 * nothing acted on: its state goes on from the plan in another process (`--resume`).
 */
export const PLANNED = 'planned';

/** The run stops here when a request cannot be brought under cost_thresholds.context_tokens. */
export const CONTEXT_STOP = 'stopped at cost_thresholds.context_tokens';

export interface LoopSettings extends VerifySettings {
  readonly model: MeteredModel;
  readonly memory: string;
  readonly tools: readonly ToolDefinition[];
  readonly approval: TierApproval;
  /** Whether a text holds a secret the run knows of, whole, in part or encoded. */
  readonly holdsSecret: (text: string) => boolean;
  /** Asks the operator a yes/no question (approval `ask`); true only on their yes. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /**
   * The policy's own budgets.change.block, when the requester's budget lowered the run's: a
   * change between the two stops the run (BUDGET_STOP) rather than being refused.
   */
  readonly policyBlock?: number | undefined;
  /** Ends the run once its plan is accepted (PLANNED), so that the plan is shown before Act. */
  readonly stopAfterPlan?: boolean | undefined;
}

export interface LoopOutcome {
  readonly status: RunStatus;
  readonly state: RunState;
  readonly verification: Verification | null;
  /** The simplifications reflexion committed on the branch after Verify passed. */
  readonly simplified: readonly RunSimplification[];
  /** Reflexion's verified patches taken back because the branch failed Verify with them. */
  readonly unapplied: readonly RunSimplification[];
  readonly summary: string;
  /** At BUDGET_STOP: the points the run needs to go on. */
  readonly needsPoints?: number;
}

interface Stop {
  readonly status: RunStatus;
  readonly why: string;
  readonly needsPoints?: number;
}

interface ActOutcome {
  readonly result: ToolResult;
  readonly finished: string | null;
  readonly stop: Stop | null;
}

const SYSTEM = [
  'You are the AUREUS builder. You implement one task in a git repository, inside its complexity budget.',
  'Gather: read what you need, then call submit_plan with your steps, files and estimate.',
  'Act: make the smallest change that does the task, with tests; then call request_verify.',
  'Verify failures come back with their evidence; fix them. When verification passes, call finish.',
  'A refused action says which gate refused it and why: choose a cheaper or allowed way.',
  'When the run asks you to reflect, answer with reflect: continue, replan or stop.',
].join('\n');

export async function runLoop(settings: LoopSettings, initial: RunState): Promise<LoopOutcome> {
  let state = initial;
  const { policy, scrub, model } = settings;
  const all = [...settings.tools, ...phaseTools()];
  const priceEffects = effectPricer(policy, async () => {
    const listed = await runGit(settings.place.tree, [
      'ls-files',
      '-z',
      '--cached',
      '--others',
      '--exclude-standard',
    ]);
    return listed.stdout
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== '');
  });
  const checkpoint = checkpointer(settings.place);
  const critic = effectCritic({
    root: settings.root,
    tree: settings.place.tree,
    startCommit: settings.startCommit,
    policy,
  });
  const resumed =
    state.turns === 0
      ? ''
      : `\n\nThis run was stopped and is resumed in the ${state.phase} phase${state.plan === null ? '' : `, with this plan: ${JSON.stringify(state.plan)}`}. The files keep the work done so far: read git_diff before changing anything.`;
  const context = runContext({
    windowTokens: policy.cost_thresholds.context_tokens,
    replyTokens: policy.model_provider.max_tokens,
  });
  let verification: Verification | null = null;
  /** The simplifications reflexion committed; null until a verification passed. */
  let simplified: readonly RunSimplification[] | null = null;
  let unapplied: readonly RunSimplification[] = [];
  let lastFailedTree: string | null = null;
  const save = async (next: RunState) => {
    state = next;
    await saveState(settings.memory, state);
  };
  const finishWith = (status: RunStatus, summary: string, needsPoints?: number): LoopOutcome => ({
    status,
    state,
    verification,
    simplified: simplified ?? [],
    unapplied,
    summary,
    ...(needsPoints === undefined ? {} : { needsPoints }),
  });
  /** A change the requester's budget refuses but the policy's allows: the run stops and asks. */
  const budgetStop = async (points: number | null, what: string): Promise<Stop | null> => {
    const allowed = settings.policyBlock;
    const requested = policy.budgets.change.block;
    if (allowed === undefined || points === null || points <= requested || points > allowed)
      return null;
    const why = `${what} costs ${points} points, over the requested budget of ${requested} points (the policy allows up to ${allowed}): the run stops with its work so far, and goes on with a budget of ${points} points or more.`;
    await recordAction(settings.memory, { kind: 'stop', cap: 'requested budget', reason: why });
    return { status: BUDGET_STOP, why, needsPoints: points };
  };
  /** Actions since the last reflection; a reflection is due at reflect_every_actions. */
  let sinceReflection = 0;
  let reflectionDue = false;
  for (;;) {
    // A due reflection is the one thing the model may do; otherwise reflect is not offered.
    const offered = all.filter((tool) =>
      reflectionDue
        ? tool.spec.name === 'reflect'
        : tool.spec.name !== 'reflect' && tool.phases.includes(state.phase),
    );
    const fitted = context.request(
      {
        system: SYSTEM,
        tools: offered.map((tool) => tool.spec),
        maxTokens: policy.model_provider.max_tokens,
      },
      scrub(await pinnedText(state, policy, settings.memory, resumed)),
    );
    if (!fitted.fits) {
      const why = `the next request needs ${fitted.tokens} tokens (its input at one token per byte, plus model_provider.max_tokens), over cost_thresholds.context_tokens (${policy.cost_thresholds.context_tokens}), with older turns summarized and file contents dropped.`;
      await recordAction(settings.memory, { kind: 'stop', cap: 'context_tokens', reason: why });
      return finishWith(CONTEXT_STOP, why);
    }
    if (fitted.dropped.length > 0 || fitted.compacted > 0)
      await recordAction(settings.memory, {
        kind: 'context',
        dropped: fitted.dropped.map(scrub),
        compacted: fitted.compacted,
        tokens: fitted.tokens,
      });
    let reply: ModelReply;
    try {
      reply = await model.complete(
        state.phase === 'gather' ? 'planning' : 'building',
        fitted.request,
      );
    } catch (error) {
      if (error instanceof SpendCapReached) {
        await recordAction(settings.memory, {
          kind: 'stop',
          cap: error.cap,
          reason: error.message,
        });
        return finishWith(`stopped at ${error.cap}`, error.message);
      }
      throw error;
    }
    const spent = model.spent();
    await save({
      ...state,
      turns: state.turns + 1,
      // A resumed run adds this invocation's spend to what its state held.
      tokens: initial.tokens + spent.inputTokens + spent.outputTokens,
      dollars: initial.dollars + spent.usd,
    });
    await recordAction(settings.memory, {
      kind: 'model',
      provider: reply.provider,
      model: reply.model,
      inputTokens: reply.usage.inputTokens,
      outputTokens: reply.usage.outputTokens,
      usd: spent.usd,
    });
    const uses = reply.blocks.filter(
      (block): block is Extract<ConversationBlock, { type: 'tool_use' }> =>
        block.type === 'tool_use',
    );
    if (uses.length === 0)
      return finishWith('stopped: the model ended without finishing', textOf(reply));
    // The actions of a turn answering a reflection are refused (all but reflect): not counted.
    const counted = reflectionDue ? 0 : uses.length;
    const results: ConversationBlock[] = [];
    const notes: ActionNote[] = [];
    let finished: string | null = null;
    let stop: Stop | null = null;
    for (const use of uses) {
      const outcome = await act(use.name, use.input);
      results.push({
        type: 'tool_result',
        toolUseId: use.id,
        content: context.fitResult(outcome.result),
        isError: !outcome.result.ok,
      });
      notes.push({
        toolUseId: use.id,
        name: use.name,
        input: scrubInput(use.input, scrub),
        result: outcome.result,
      });
      if (outcome.finished !== null) finished = outcome.finished;
      if (outcome.stop !== null) stop = outcome.stop;
    }
    sinceReflection += counted;
    if (!reflectionDue && sinceReflection >= policy.cost_thresholds.reflect_every_actions) {
      reflectionDue = true;
      results.push({
        type: 'text',
        text: await reflectionPrompt(settings.memory, sinceReflection, scrub),
      });
    }
    context.record(state.turns, scrubReply(reply.blocks, scrub), results, notes);
    if (finished !== null) return finishWith('done', finished);
    if (stop !== null) return finishWith(stop.status, stop.why, stop.needsPoints);
  }

  async function act(name: string, input: unknown): Promise<ActOutcome> {
    const plain = (result: ToolResult): ActOutcome => ({ result, finished: null, stop: null });
    if (reflectionDue !== (name === 'reflect')) {
      const error = reflectionDue
        ? 'A reflection is due: nothing else runs until you call reflect.'
        : 'reflect answers a reflection the run asks for; none is due.';
      await recordAction(settings.memory, {
        kind: 'action',
        tool: scrub(name),
        refusedBy: 'phase',
        error,
      });
      return plain({ ok: false, refusedBy: 'phase', error });
    }
    const carried = carriedSecretRefusal({ name, input }, settings.holdsSecret);
    if (carried !== null) {
      await recordAction(settings.memory, {
        kind: 'action',
        tool: scrub(name),
        refusedBy: carried.refusedBy,
        error: carried.error,
      });
      return plain(carried);
    }
    const tool = all.find((each) => each.spec.name === name);
    if (tool === undefined) {
      const why = unofferedTool(name) ?? `there is no tool named ${name}.`;
      const result: ToolResult = { ok: false, refusedBy: 'phase', error: why };
      await recordAction(settings.memory, {
        kind: 'action',
        tool: scrub(name),
        refusedBy: 'phase',
        error: scrub(why),
      });
      return plain(result);
    }
    const preview = await tool.preview(input);
    if ('ok' in preview) {
      await recordAction(settings.memory, {
        kind: 'action',
        tool: name,
        refusedBy: preview.refusedBy ?? 'input',
        error: scrub(preview.error),
      });
      return plain(scrubResult(preview, scrub));
    }
    const mutates = preview.kind !== 'read';
    let checkpointRef: string | null = null;
    const effects = preview.kind === 'files' ? preview.effects : [];
    const effectPoints = effects.length === 0 ? 0 : await priceEffects(effects);
    const gates = await runGates(
      tool,
      effectPoints,
      {
        policy,
        phase: state.phase,
        spentPoints: state.spentPoints,
        planAllocation: allocationOf(state.plan, policy),
        approval: settings.approval,
      },
      async () => {
        const oversized = patchRefusal(effects, policy);
        if (oversized !== null) return oversized;
        if (!mutates) return null;
        const taken = await checkpoint(`before ${name}`);
        // The critic reads the tree as the checkpoint holds it, with the action's files on top.
        const unsafe = effects.length === 0 ? null : await critic(effects, taken);
        if (unsafe === null) checkpointRef = taken.ref;
        return unsafe;
      },
      async () => settings.confirm?.(approvalQuestion(name, preview)) ?? false,
    );
    const decisions = gates.decisions.map((each) => ({ gate: each.gate, verdict: each.verdict }));
    if (checkpointRef !== null)
      await save({ ...state, checkpoints: [...state.checkpoints, checkpointRef] });
    if (gates.refusal !== null) {
      await recordAction(settings.memory, {
        kind: 'action',
        tool: name,
        gates: decisions,
        effectPoints,
        refusedBy: gates.refusal.refusedBy,
        error: scrub(gates.refusal.error),
      });
      const over =
        gates.refusal.refusedBy === 'budget'
          ? await budgetStop(
              state.spentPoints + actionPoints(policy, tool.tier, effectPoints),
              'After this action the change',
            )
          : null;
      return { result: scrubResult(gates.refusal, scrub), finished: null, stop: over };
    }
    if (name === 'submit_plan') return plan(input, decisions);
    if (name === 'reflect') return reflection(input, decisions);
    if (name === 'request_verify') return verify(decisions);
    if (name === 'finish') {
      const summary = typeof input === 'object' && input !== null && 'summary' in input;
      await recordAction(settings.memory, { kind: 'action', tool: name, gates: decisions });
      return {
        result: { ok: true, output: 'finished' },
        finished: summary ? scrub(String(input.summary)) : '',
        stop: null,
      };
    }
    let result: ToolResult;
    try {
      result = scrubResult(await tool.apply(input), scrub);
    } catch (error) {
      if (!(error instanceof AureusError)) throw error;
      result = scrubResult({ ok: false, error: error.message, hint: error.hint }, scrub);
    }
    await recordAction(settings.memory, {
      kind: 'action',
      tool: name,
      gates: decisions,
      effectPoints,
      ok: result.ok,
      ...(checkpointRef === null ? {} : { checkpoint: checkpointRef }),
    });
    // What the branch has cost so far: the last verification's figure plus the files written
    // since, so several writes cannot each pass the budget alone.
    if (result.ok && effectPoints !== 0)
      await save({ ...state, spentPoints: state.spentPoints + effectPoints });
    return plain(result);
  }

  /** The model's answer to a reflection: its notes kept, then on as it decided. */
  async function reflection(input: unknown, gates: JsonObject[]): Promise<ActOutcome> {
    const answer = reflectAnswerOf(input);
    await recordReflection(settings.memory, answer, sinceReflection, scrub);
    await recordAction(settings.memory, {
      kind: 'action',
      tool: 'reflect',
      gates,
      decision: answer.decision,
    });
    reflectionDue = false;
    sinceReflection = 0;
    if (answer.decision === 'replan') await save({ ...state, phase: 'gather' });
    const result: ToolResult = {
      ok: true,
      output: { decision: answer.decision, phase: state.phase },
    };
    const stop: Stop | null =
      answer.decision === 'stop'
        ? { status: 'stopped by the model at a reflection', why: scrub(answer.blockers.join('\n')) }
        : null;
    return { result, finished: null, stop };
  }

  async function plan(input: unknown, gates: JsonObject[]): Promise<ActOutcome> {
    const planned = typeof input === 'object' && input !== null ? JSON.stringify(input) : '{}';
    const parsed: unknown = JSON.parse(scrub(planned));
    const planObject: JsonObject =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as JsonObject)
        : {};
    const judged = judgePlan(planObject, policy);
    // A plan only the requester's budget refuses is kept, and the run stops before Act: with a
    // larger budget it goes on from this plan instead of planning again.
    const over =
      judged.refusal === null
        ? null
        : await budgetStop(judged.estimatedPoints, "The plan's estimate");
    if (judged.refusal !== null && over === null) {
      await recordAction(settings.memory, {
        kind: 'action',
        tool: 'submit_plan',
        gates,
        estimatedPoints: judged.estimatedPoints,
        refusedBy: 'budget',
        error: judged.refusal.error,
      });
      return { result: judged.refusal, finished: null, stop: null };
    }
    await writeNote(settings.memory, 'progress.md', `# Plan\n\n${scrub(planned)}\n`);
    await save({ ...state, phase: 'act', plan: planObject });
    await recordAction(settings.memory, {
      kind: 'action',
      tool: 'submit_plan',
      gates,
      estimatedPoints: judged.estimatedPoints,
    });
    const result: ToolResult =
      over === null
        ? { ok: true, output: { accepted: true, phase: 'act', ...judged.allowance } }
        : { ok: false, refusedBy: 'budget', error: over.why };
    const atPlan: Stop | null =
      over === null && settings.stopAfterPlan === true
        ? { status: PLANNED, why: 'The plan is accepted; the run goes on to Act from it.' }
        : null;
    return { result, finished: null, stop: over ?? atPlan };
  }

  /**
   * Reflexion once the change verifies: its patches committed, the branch verified again, and
   * the commit taken back if that fails, so the run finishes on a verified branch either way.
   */
  async function reflect(passed: Verification): Promise<Verification> {
    const reflection = await reflectOnRun(settings, passed.report);
    simplified = [];
    if (reflection === null) return passed;
    const again = reflection.commit === null ? passed : await verifyRun(settings);
    if (!again.passed) {
      await undoReflection(settings, reflection);
      unapplied = reflection.patches;
    } else simplified = reflection.patches;
    await recordAction(settings.memory, {
      kind: 'reflexion',
      why: reflection.why,
      patches: reflection.patches.map((patch) => ({ ...patch })),
      kept: again.passed,
      ...(again.passed ? {} : { evidence: again.evidence.join('\n\n') }),
    });
    return again.passed ? again : passed;
  }

  async function verify(gates: JsonObject[]): Promise<ActOutcome> {
    verification = await verifyRun(settings);
    if (verification.passed && simplified === null) verification = await reflect(verification);
    const { report } = verification;
    const iteration = state.iteration + 1;
    await save({
      ...state,
      iteration,
      spentPoints: report.cost.total,
      phase: verification.passed ? 'verify' : 'act',
    });
    await recordAction(settings.memory, {
      kind: 'verify',
      gates,
      passed: verification.passed,
      tests: verification.tests?.run.exitCode ?? null,
      verdict: report.verdict,
      points: report.cost.total,
    });
    if (verification.passed)
      return {
        result: {
          ok: true,
          output: {
            passed: true,
            points: report.cost.total,
            simplified: (simplified ?? []).map((patch) => patch.title),
            next: 'finish',
          },
        },
        finished: null,
        stop: null,
      };
    const failure = verification.evidence.join('\n\n');
    // The same files failing twice in a row: the model is not making progress.
    const stuck = verification.tree === lastFailedTree;
    lastFailedTree = verification.tree;
    const stop: Stop | null = stuck
      ? {
          status: 'stopped: no progress',
          why: 'verification failed twice on the same files: nothing changed in between.',
        }
      : iteration >= policy.cost_thresholds.max_iterations
        ? {
            status: 'stopped by the iteration bound',
            why: `verification failed ${iteration} times (cost_thresholds.max_iterations).`,
          }
        : null;
    return {
      result: {
        ok: false,
        error: `verification failed:\n${failure}`,
        hint: 'fix what failed, then call request_verify again.',
      },
      finished: null,
      stop,
    };
  }
}

/** cost_thresholds.max_patch_files and max_patch_bytes: one action's patch stays reviewable. */
function patchRefusal(effects: readonly FileEffect[], policy: Policy): Refusal | null {
  const { max_patch_files, max_patch_bytes } = policy.cost_thresholds;
  const bytes = effects.reduce((sum, effect) => sum + Buffer.byteLength(effect.after ?? ''), 0);
  if (effects.length <= max_patch_files && bytes <= max_patch_bytes) return null;
  return {
    ok: false,
    refusedBy: 'safety',
    error: `This action writes ${effects.length} files and ${bytes} bytes, over cost_thresholds.max_patch_files (${max_patch_files}) or max_patch_bytes (${max_patch_bytes}).`,
    hint: 'Make the change in smaller actions.',
  };
}

function textOf(reply: ModelReply): string {
  return reply.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}
