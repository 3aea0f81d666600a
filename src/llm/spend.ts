import { AureusError } from '../model/errors.js';
import type { ModelClient, ModelRequest, ModelRole, TokenUsage } from './model-client.js';
import { worstCaseUsage } from './request-size.js';

/** US dollars per million tokens, as model_provider.prices gives them. */
export interface ModelPrice {
  readonly model: string;
  readonly input_usd_per_mtok: number;
  readonly output_usd_per_mtok: number;
}

/** cost_thresholds' caps on model spend. */
export interface SpendCaps {
  readonly max_tokens_per_run: number;
  readonly max_usd_per_run: number;
  readonly max_usd_per_day: number;
}

export interface Spent {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly usd: number;
}

export type SpendCap = keyof SpendCaps;

/** What a run spent in its earlier invocations, before it was stopped and resumed. */
export interface RunSpend {
  readonly tokens: number;
  readonly usd: number;
}

/** A call was not sent: its worst case would pass a cap. Names the cap and both amounts. */
export class SpendCapReached extends AureusError {
  readonly cap: SpendCap;
  readonly limit: number;
  readonly spent: number;
  readonly needed: number;

  constructor(cap: SpendCap, limit: number, spent: number, needed: number) {
    const amount = cap === 'max_tokens_per_run' ? tokens : dollars;
    const so = cap === 'max_usd_per_day' ? 'spent today' : 'spent in this run';
    super(
      `the model spend cap cost_thresholds.${cap} (${amount(limit)}) is reached: ${amount(spent)} ${so}, and the next call may need up to ${amount(needed)}; it was not sent.`,
      `raise cost_thresholds.${cap} in .aureus/policy.yaml, or lower model_provider.max_tokens, or narrow the task.`,
    );
    this.name = 'SpendCapReached';
    this.cap = cap;
    this.limit = limit;
    this.spent = spent;
    this.needed = needed;
  }
}

const tokens = (n: number) => `${n} tokens`;
const dollars = (n: number) => `$${n.toFixed(4)}`;

export interface MeteredModel extends ModelClient {
  /** This run's calls, tokens and dollars so far: exactly the sum of the API's usage figures. */
  spent(): Spent;
}

export interface MeterSettings {
  readonly prices: readonly ModelPrice[];
  readonly caps: SpendCaps;
  /** Dollars spent today before this run (the loop reads them from the ledger). */
  readonly spentTodayUsd: number;
  /**
   * What this run spent before a resume: the run caps hold across invocations, or a run stopped
   * at its cap would get its whole budget again by resuming.
   */
  readonly spentBeforeResume?: RunSpend;
  /** The models that may answer a call of each role: its worst case is at the dearest of them. */
  readonly models: Readonly<Record<ModelRole, readonly string[]>>;
}

/**
 * Counts every call's tokens and dollars and holds the caps before each call: the worst case of
 * the call (its request's bytes as input tokens, plus every reply token it allows, at the
 * dearest model that may answer) must fit every cap, else SpendCapReached and nothing is sent.
 * A model the table does not price costs the dearest price in it: never free.
 */
export function meteredModel(client: ModelClient, settings: MeterSettings): MeteredModel {
  // Tokens per model, so dollars are computed once from exact integer sums.
  const used = new Map<string, { input: number; output: number }>();
  let calls = 0;
  const priceOf = pricing(settings.prices);
  const usdOf = (model: string, usage: TokenUsage) => {
    const price = priceOf(model);
    return (
      (usage.inputTokens * price.input_usd_per_mtok +
        usage.outputTokens * price.output_usd_per_mtok) /
      1_000_000
    );
  };
  const spent = (): Spent => {
    let inputTokens = 0;
    let outputTokens = 0;
    let usd = 0;
    for (const [model, usage] of used) {
      inputTokens += usage.input;
      outputTokens += usage.output;
      usd += usdOf(model, { inputTokens: usage.input, outputTokens: usage.output });
    }
    return { calls, inputTokens, outputTokens, usd };
  };
  const hold = (role: ModelRole, request: ModelRequest) => {
    const worst = worstCaseUsage(request);
    const now = spent();
    const neededTokens = worst.inputTokens + worst.outputTokens;
    const neededUsd = Math.max(0, ...settings.models[role].map((model) => usdOf(model, worst)));
    const { caps } = settings;
    const before = settings.spentBeforeResume ?? { tokens: 0, usd: 0 };
    const runTokens = before.tokens + now.inputTokens + now.outputTokens;
    const runUsd = before.usd + now.usd;
    if (runTokens + neededTokens > caps.max_tokens_per_run)
      throw new SpendCapReached(
        'max_tokens_per_run',
        caps.max_tokens_per_run,
        runTokens,
        neededTokens,
      );
    if (runUsd + neededUsd > caps.max_usd_per_run)
      throw new SpendCapReached('max_usd_per_run', caps.max_usd_per_run, runUsd, neededUsd);
    const today = settings.spentTodayUsd + now.usd;
    if (today + neededUsd > caps.max_usd_per_day)
      throw new SpendCapReached('max_usd_per_day', caps.max_usd_per_day, today, neededUsd);
  };
  return {
    spent,
    async complete(role, request) {
      hold(role, request);
      const reply = await client.complete(role, request);
      const sum = used.get(reply.model) ?? { input: 0, output: 0 };
      used.set(reply.model, {
        input: sum.input + reply.usage.inputTokens,
        output: sum.output + reply.usage.outputTokens,
      });
      calls += 1;
      return reply;
    },
  };
}

function pricing(prices: readonly ModelPrice[]): (model: string) => ModelPrice {
  const dearest = (a: ModelPrice, b: ModelPrice): ModelPrice => ({
    model: a.model,
    input_usd_per_mtok: Math.max(a.input_usd_per_mtok, b.input_usd_per_mtok),
    output_usd_per_mtok: Math.max(a.output_usd_per_mtok, b.output_usd_per_mtok),
  });
  const byModel = new Map<string, ModelPrice>();
  for (const price of prices) {
    const known = byModel.get(price.model);
    byModel.set(price.model, known === undefined ? price : dearest(known, price));
  }
  const fallback = prices.reduce<ModelPrice | undefined>(
    (worst, price) => (worst === undefined ? price : dearest(worst, price)),
    undefined,
  );
  if (fallback === undefined)
    throw new AureusError(
      'model_provider.prices is empty: no model call can be held to the dollar caps.',
      'add the price of every model the providers name to model_provider.prices.',
    );
  return (model) => byModel.get(model) ?? fallback;
}
