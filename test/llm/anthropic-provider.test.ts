import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { anthropicProvider } from '../../src/llm/anthropic-provider.js';
import type { ModelRequest } from '../../src/llm/model-client.js';
import type { ProviderSettings } from '../../src/llm/provider.js';
import { AureusError } from '../../src/model/errors.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';

const KEY = 'sk-ant-test-provider-key';

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer();
});

afterAll(() => server.close());

beforeEach(() => {
  (server.requests as unknown[]).length = 0;
});

function provider(overrides: Partial<ProviderSettings> = {}) {
  return anthropicProvider({
    name: 'anthropic',
    models: { planning: 'claude-plan', building: 'claude-build' },
    apiKey: KEY,
    apiKeyEnv: 'AUREUS_TEST_KEY',
    baseUrl: server.url,
    timeoutMs: 10_000,
    maxRetries: 0,
    ...overrides,
  });
}

const READ = {
  name: 'file_read',
  description: 'Reads a file of the repository.',
  inputSchema: { properties: { path: { type: 'string' } }, required: ['path'] },
};

const request = (turns: ModelRequest['turns'] = []): ModelRequest => ({
  system: 'You build.',
  turns: [{ role: 'user', blocks: [{ type: 'text', text: 'Add a greeting.' }] }, ...turns],
  tools: [READ],
  maxTokens: 1000,
});

describe('the Anthropic provider, through the real SDK against a scripted Messages API', () => {
  it('sends turns and tools in the API shape and reads tool calls, usage and the stop reason', async () => {
    server.script({
      blocks: [
        { type: 'text', text: 'Reading it first.' },
        { type: 'tool_use', id: 'toolu_42', name: 'file_read', input: { path: 'src/a.ts' } },
      ],
      usage: { input: 321, output: 45 },
    });
    const reply = await provider().complete(
      'claude-build',
      request([
        {
          role: 'assistant',
          blocks: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: '{not an object' }],
        },
        {
          role: 'user',
          blocks: [
            { type: 'tool_result', toolUseId: 'toolu_1', content: '{"error":"x"}', isError: true },
          ],
        },
      ]),
    );
    expect(reply).toEqual({
      blocks: [
        { type: 'text', text: 'Reading it first.' },
        { type: 'tool_use', id: 'toolu_42', name: 'file_read', input: { path: 'src/a.ts' } },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 321, outputTokens: 45 },
      provider: 'anthropic',
      model: 'claude-build',
    });
    const [sent] = server.requests;
    expect(sent?.apiKey).toBe(KEY);
    expect(sent?.body).toMatchObject({
      model: 'claude-build',
      max_tokens: 1000,
      system: 'You build.',
      tools: [
        {
          name: 'file_read',
          description: 'Reads a file of the repository.',
          input_schema: { type: 'object', required: ['path'] },
        },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Add a greeting.' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: {} }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: '{"error":"x"}',
              is_error: true,
            },
          ],
        },
      ],
    });
  });

  it('waits out a 429 as retry-after says, then answers', async () => {
    server.script(
      { status: 429, message: 'slow down', headers: { 'retry-after': '0.01' } },
      { text: 'done', usage: { input: 10, output: 2 } },
    );
    const reply = await provider({ maxRetries: 2 }).complete('claude-build', request());
    expect(reply.blocks).toEqual([{ type: 'text', text: 'done' }]);
    expect(reply.stopReason).toBe('end_turn');
    expect(server.requests).toHaveLength(2);
  });

  it('reports overload, a stalled reply and a body that is not JSON as unavailable', async () => {
    server.script({ status: 529, message: 'Overloaded', headers: { 'x-should-retry': 'false' } });
    await expect(provider().complete('claude-build', request())).rejects.toThrow(
      /^the model provider anthropic did not answer: HTTP 529: .*Overloaded/,
    );
    server.script({ hold: true });
    await expect(provider({ timeoutMs: 50 }).complete('claude-build', request())).rejects.toThrow(
      'the model provider anthropic did not answer: no answer within 50 ms',
    );
    server.script({ malformed: '{"id": "msg_1", "content": [' });
    await expect(provider().complete('claude-build', request())).rejects.toMatchObject({
      name: 'ProviderUnavailable',
    });
  });

  it('names the key variable on a refused key, and never says the key', async () => {
    server.script({ status: 401, message: `invalid x-api-key ${KEY}` });
    const refused = await provider()
      .complete('claude-build', request())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AureusError);
    expect(refused).not.toHaveProperty('name', 'ProviderUnavailable');
    const { message, hint } = refused as AureusError;
    expect(message).toMatch(
      /^the model provider anthropic refused the key in AUREUS_TEST_KEY \(HTTP 401\)/,
    );
    expect(`${message} ${hint}`).not.toContain(KEY);
    expect(hint).toContain('model_provider.api_key_env');
  });
});
