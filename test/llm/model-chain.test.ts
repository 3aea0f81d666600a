import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { anthropicProvider } from '../../src/llm/anthropic-provider.js';
import { modelChain } from '../../src/llm/model-chain.js';
import type { ModelRequest } from '../../src/llm/model-client.js';
import { openAiProvider } from '../../src/llm/openai-provider.js';
import { AureusError } from '../../src/model/errors.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';
import {
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../support/scripted-openai-server.js';

const PRIMARY_KEY = 'sk-ant-primary-chain-key';

let primary: ScriptedModelServer;
let fallback: ScriptedOpenAiServer;

beforeAll(async () => {
  primary = await startScriptedModelServer();
  fallback = await startScriptedOpenAiServer();
});

afterAll(async () => {
  await primary.close();
  await fallback.close();
});

beforeEach(() => {
  (primary.requests as unknown[]).length = 0;
  (fallback.requests as unknown[]).length = 0;
});

/** Anthropic first, a local OpenAI-compatible server second; a breaker after two failures. */
function chain(timeoutMs = 10_000) {
  return modelChain(
    [
      anthropicProvider({
        name: 'anthropic',
        models: { planning: 'claude-plan', building: 'claude-build' },
        apiKey: PRIMARY_KEY,
        apiKeyEnv: 'AUREUS_TEST_PRIMARY_KEY',
        baseUrl: primary.url,
        timeoutMs,
        maxRetries: 0,
      }),
      openAiProvider({
        name: 'fallback 1 (openai-compatible)',
        models: { planning: 'qwen-plan', building: 'qwen-build' },
        apiKey: '',
        apiKeyEnv: 'OPENAI_API_KEY',
        baseUrl: `${fallback.url}/v1`,
        timeoutMs: 10_000,
        maxRetries: 0,
      }),
    ],
    2,
  );
}

const REQUEST: ModelRequest = {
  system: 'You plan.',
  turns: [{ role: 'user', blocks: [{ type: 'text', text: 'Plan a greeting.' }] }],
  tools: [],
  maxTokens: 500,
};

describe('the provider chain, through the real SDKs against scripted servers', () => {
  it('falls back on a server error, with the model of the role, and says who answered', async () => {
    primary.script({ status: 500, message: 'boom' });
    fallback.script({ text: 'plan from the fallback' });
    const reply = await chain().complete('planning', REQUEST);
    expect(reply).toMatchObject({
      provider: 'fallback 1 (openai-compatible)',
      model: 'qwen-plan',
      blocks: [{ type: 'text', text: 'plan from the fallback' }],
    });
    expect(primary.requests[0]?.body.model).toBe('claude-plan');
    expect(fallback.requests[0]?.body.model).toBe('qwen-plan');
  });

  it('falls back when the primary never answers', async () => {
    primary.script({ hold: true });
    fallback.script({ text: 'built' });
    const reply = await chain(50).complete('building', REQUEST);
    expect(reply.provider).toBe('fallback 1 (openai-compatible)');
    expect(primary.requests).toHaveLength(1);
  });

  it('stops at a refused key with an error naming its variable: no fallback, no key', async () => {
    primary.script({ status: 401, message: `invalid x-api-key ${PRIMARY_KEY}` });
    const refused = await chain()
      .complete('building', REQUEST)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AureusError);
    expect((refused as AureusError).message).toContain('AUREUS_TEST_PRIMARY_KEY');
    expect((refused as AureusError).message).not.toContain(PRIMARY_KEY);
    expect(fallback.requests).toEqual([]);
  });

  it('skips a dead provider once its breaker opens, and says so when no provider is left', async () => {
    const client = chain();
    primary.script({ status: 503, message: 'down' }, { status: 529, message: 'overloaded' });
    fallback.script({ text: 'one' }, { text: 'two' }, { text: 'three' });
    for (const expected of ['one', 'two', 'three'])
      expect((await client.complete('building', REQUEST)).blocks).toEqual([
        { type: 'text', text: expected },
      ]);
    // Two failures opened the breaker: the third call went straight to the fallback.
    expect(primary.requests).toHaveLength(2);

    fallback.script({ status: 502, message: 'bad gateway' });
    await expect(client.complete('building', REQUEST)).rejects.toThrow(
      /^no model provider answered the building call: anthropic: skipped after 2 consecutive failures; the model provider fallback 1 \(openai-compatible\) did not answer: HTTP 502/,
    );
    expect(primary.requests).toHaveLength(2);
  });
});
