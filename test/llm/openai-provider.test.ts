import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ModelRequest } from '../../src/llm/model-client.js';
import { openAiProvider } from '../../src/llm/openai-provider.js';
import type { ProviderSettings } from '../../src/llm/provider.js';
import { inputTokenBound } from '../../src/llm/request-size.js';
import { AureusError } from '../../src/model/errors.js';
import {
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../support/scripted-openai-server.js';

const KEY = 'sk-test-openai-compatible-key';

let server: ScriptedOpenAiServer;

beforeAll(async () => {
  server = await startScriptedOpenAiServer();
});

afterAll(() => server.close());

beforeEach(() => {
  (server.requests as unknown[]).length = 0;
});

function provider(overrides: Partial<ProviderSettings> = {}) {
  return openAiProvider({
    name: 'local',
    models: { planning: 'qwen-plan', building: 'qwen-build' },
    apiKey: KEY,
    apiKeyEnv: 'AUREUS_TEST_OPENAI_KEY',
    baseUrl: `${server.url}/v1`,
    timeoutMs: 10_000,
    maxRetries: 0,
    ...overrides,
  });
}

const request = (turns: ModelRequest['turns'] = []): ModelRequest => ({
  system: 'You build.',
  turns: [{ role: 'user', blocks: [{ type: 'text', text: 'Add a greeting.' }] }, ...turns],
  tools: [
    {
      name: 'file_read',
      description: 'Reads a file of the repository.',
      inputSchema: { properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  maxTokens: 1000,
});

describe('the OpenAI-compatible provider, through the real openai SDK against a scripted server', () => {
  it('sends chat messages and tools, and reads tool calls, usage and the finish reason', async () => {
    server.script({
      text: 'Reading it.',
      toolCalls: [
        { id: 'call_7', name: 'file_read', arguments: { path: 'src/a.ts' } },
        { id: 'call_8', name: 'file_read', arguments: '{"path": ' },
      ],
      usage: { input: 222, output: 33 },
    });
    const reply = await provider().complete(
      'qwen-build',
      request([
        {
          role: 'assistant',
          blocks: [
            { type: 'text', text: 'Listing.' },
            { type: 'tool_use', id: 'call_1', name: 'list_dir', input: { path: '.' } },
          ],
        },
        {
          role: 'user',
          blocks: [
            { type: 'tool_result', toolUseId: 'call_1', content: '{"entries":[]}', isError: false },
          ],
        },
      ]),
    );
    expect(reply).toEqual({
      blocks: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'call_7', name: 'file_read', input: { path: 'src/a.ts' } },
        { type: 'tool_use', id: 'call_8', name: 'file_read', input: '{"path": ' },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 222, outputTokens: 33 },
      provider: 'local',
      model: 'qwen-build',
    });
    const [sent] = server.requests;
    expect(sent?.apiKey).toBe(KEY);
    expect(sent?.body).toMatchObject({
      model: 'qwen-build',
      max_tokens: 1000,
      tools: [
        {
          type: 'function',
          function: { name: 'file_read', parameters: { type: 'object', required: ['path'] } },
        },
      ],
      messages: [
        { role: 'system', content: 'You build.' },
        { role: 'user', content: 'Add a greeting.' },
        {
          role: 'assistant',
          content: 'Listing.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'list_dir', arguments: '{"path":"."}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"entries":[]}' },
      ],
    });
  });

  it('charges a reply without usage the most the call could cost', async () => {
    server.script({ text: 'done', usage: null });
    const reply = await provider().complete('qwen-build', request());
    expect(reply.usage).toEqual({ inputTokens: inputTokenBound(request()), outputTokens: 1000 });
    expect(reply.stopReason).toBe('end_turn');
  });

  it('waits out a 429 as retry-after says; a 500, a stall and a broken body are unavailable', async () => {
    server.script(
      { status: 429, message: 'slow down', headers: { 'retry-after': '0.01' } },
      { text: 'ok' },
    );
    expect((await provider({ maxRetries: 1 }).complete('qwen-build', request())).blocks).toEqual([
      { type: 'text', text: 'ok' },
    ]);
    expect(server.requests).toHaveLength(2);
    server.script({ status: 500, message: 'boom' });
    await expect(provider().complete('qwen-build', request())).rejects.toThrow(
      /^the model provider local did not answer: HTTP 500/,
    );
    // Under Jest's module realm the SDK sees its own abort as a connection error, not a timeout
    // (its DOMException is not that realm's Error): either way the provider is unavailable.
    server.script({ hold: true });
    await expect(
      provider({ timeoutMs: 50 }).complete('qwen-build', request()),
    ).rejects.toMatchObject({
      name: 'ProviderUnavailable',
      message: expect.stringMatching(/^the model provider local did not answer/),
    });
    server.script({ malformed: 'not json' });
    await expect(provider().complete('qwen-build', request())).rejects.toMatchObject({
      name: 'ProviderUnavailable',
    });
  });

  it('names the key variable on a refused key, never the key; a local server needs none', async () => {
    server.script({ status: 401, message: `Incorrect API key provided: ${KEY}` });
    const refused = await provider()
      .complete('qwen-build', request())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AureusError);
    const { message, hint } = refused as AureusError;
    expect(message).toMatch(/^the model provider local refused the key in AUREUS_TEST_OPENAI_KEY/);
    expect(`${message} ${hint}`).not.toContain(KEY);

    server.script({ text: 'hello' });
    await provider({ apiKey: '' }).complete('qwen-build', request());
    expect(server.requests[1]?.apiKey).toBe('no-key');
  });
});
