import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ModelRequest } from '../../src/llm/model-client.js';
import { modelFromPolicy } from '../../src/llm/model-from-policy.js';
import { type RunSpend, SpendCapReached } from '../../src/llm/spend.js';
import type { Policy } from '../../src/model/policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';
import {
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../support/scripted-openai-server.js';

const KEY = 'sk-ant-policy-test-key';

let anthropic: ScriptedModelServer;
let local: ScriptedOpenAiServer;

beforeAll(async () => {
  anthropic = await startScriptedModelServer();
  local = await startScriptedOpenAiServer();
});

afterAll(async () => {
  await anthropic.close();
  await local.close();
});

beforeEach(() => {
  (anthropic.requests as unknown[]).length = 0;
  (local.requests as unknown[]).length = 0;
});

function policy(yaml: string): Policy {
  const parsed = parsePolicy(`version: 1\n${yaml}`, 'policy.yaml');
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => problem.message).join('\n'));
  return parsed.policy;
}

/** Anthropic by its SDK's variables, a local server as the fallback, both priced. */
const CHAIN = `model_provider:
  provider: anthropic
  model: claude-build
  planning_model: claude-plan
  fallback:
    - provider: openai-compatible
      model: qwen-build
      base_url: LOCAL/v1
  prices:
    - { model: claude-build, input_usd_per_mtok: 3, output_usd_per_mtok: 15 }
    - { model: claude-plan, input_usd_per_mtok: 15, output_usd_per_mtok: 75 }
    - { model: qwen-build, input_usd_per_mtok: 0, output_usd_per_mtok: 0 }
`;

const request = (maxTokens = 100): ModelRequest => ({
  system: 'You build.',
  turns: [{ role: 'user', blocks: [{ type: 'text', text: 'Go.' }] }],
  tools: [],
  maxTokens,
});

function model(yaml: string, spentTodayUsd = 0, spentBeforeResume?: RunSpend) {
  return modelFromPolicy(policy(yaml.replace('LOCAL', local.url)), {
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.url },
    spentTodayUsd,
    maxRetries: 0,
    ...(spentBeforeResume === undefined ? {} : { spentBeforeResume }),
  });
}

describe('the model of a run, as the policy configures it', () => {
  it('follows the SDK conventions, a model per role, the fallback, and sums usage exactly', async () => {
    const client = model(CHAIN);
    anthropic.script(
      { text: 'plan', usage: { input: 1000, output: 200 } },
      { status: 503, message: 'down' },
    );
    local.script({ text: 'built', usage: { input: 777, output: 11 } });
    expect((await client.complete('planning', request())).model).toBe('claude-plan');
    expect(await client.complete('building', request())).toMatchObject({
      provider: 'fallback 1 (openai-compatible)',
      model: 'qwen-build',
    });
    expect(anthropic.requests.map((sent) => [sent.apiKey, sent.body.model])).toEqual([
      [KEY, 'claude-plan'],
      [KEY, 'claude-build'],
    ]);
    // claude-plan: 1000 × $15 + 200 × $75 per million; qwen-build is free; the 503 cost nothing.
    expect(client.spent()).toEqual({
      calls: 2,
      inputTokens: 1777,
      outputTokens: 211,
      usd: 0.03,
    });
  });

  it('refuses a call whose worst case would pass a cap, and sends nothing', async () => {
    const run = model(`${CHAIN}cost_thresholds:\n  max_usd_per_run: 0.01\n`);
    // Planning at $75 per million output tokens: 200 reply tokens alone fit, 1000 do not.
    anthropic.script({ text: 'ok', usage: { input: 10, output: 10 } });
    await run.complete('planning', request(100));
    const refused = await run.complete('planning', request(1000)).catch((error) => error);
    expect(refused).toBeInstanceOf(SpendCapReached);
    expect(refused).toMatchObject({ cap: 'max_usd_per_run', limit: 0.01 });
    expect((refused as SpendCapReached).needed).toBeGreaterThan(0.075);
    expect((refused as SpendCapReached).message).toMatch(
      /^the model spend cap cost_thresholds\.max_usd_per_run \(\$0\.0100\) is reached: \$0\.0009 spent in this run, and the next call may need up to \$0\.07\d+; it was not sent\.$/,
    );
    expect(anthropic.requests).toHaveLength(1);

    const tokens = model(`${CHAIN}cost_thresholds:\n  max_tokens_per_run: 500\n`);
    await expect(tokens.complete('building', request(1000))).rejects.toMatchObject({
      cap: 'max_tokens_per_run',
      spent: 0,
    });
    const today = model(CHAIN, 19.99);
    await expect(today.complete('building', request(1000))).rejects.toMatchObject({
      cap: 'max_usd_per_day',
      spent: 19.99,
    });
    expect(anthropic.requests).toHaveLength(1);
    expect(local.requests).toHaveLength(0);
  });

  it('counts what a resumed run spent before it stopped toward the run caps', async () => {
    // A run stopped at its cap and resumed must not get its whole budget again.
    const tokens = model(`${CHAIN}cost_thresholds:\n  max_tokens_per_run: 5000\n`, 0, {
      tokens: 4900,
      usd: 0,
    });
    await expect(tokens.complete('building', request(100))).rejects.toMatchObject({
      cap: 'max_tokens_per_run',
      spent: 4900,
    });
    const dollars = model(`${CHAIN}cost_thresholds:\n  max_usd_per_run: 1\n`, 0, {
      tokens: 0,
      usd: 0.99,
    });
    await expect(dollars.complete('planning', request(1000))).rejects.toMatchObject({
      cap: 'max_usd_per_run',
      spent: 0.99,
    });
    expect(anthropic.requests).toHaveLength(0);
  });

  it('names the key variable when it is not set; a local server needs none', () => {
    expect(() =>
      modelFromPolicy(policy('model_provider:\n  provider: anthropic\n'), {
        env: {},
        spentTodayUsd: 0,
      }),
    ).toThrow('ANTHROPIC_API_KEY is not set: model_provider (anthropic) needs its API key.');
    expect(() =>
      modelFromPolicy(
        policy(
          'model_provider:\n  provider: openai-compatible\n  model: llama\n  prices: [{ model: llama, input_usd_per_mtok: 0, output_usd_per_mtok: 0 }]\n',
        ),
        { env: { OPENAI_BASE_URL: `${local.url}/v1` }, spentTodayUsd: 0 },
      ),
    ).not.toThrow();
  });

  it('refuses at load a policy whose chain names a model without a price', () => {
    const parsed = parsePolicy(
      'version: 1\nmodel_provider:\n  provider: anthropic\n  model: claude-x\n  fallback:\n    - { provider: openai-compatible, model: llama }\n',
      'policy.yaml',
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((problem) => problem.message)).toEqual([
      'model_provider.prices has no price for "claude-x", "llama": its spend could not be held to cost_thresholds\' dollar caps.',
    ]);
  });
});
