import type { ModelClient, ModelRole } from './model-client.js';

/** Asks the model once: a system prompt and one user message in, the reply's text out. */
export type AskModel = (system: string, user: string) => Promise<string>;

/** One question, no tools, through any ModelClient (its chain, its spend accounting and caps). */
export function askModel(client: ModelClient, role: ModelRole, maxTokens: number): AskModel {
  return async (system, user) => {
    const reply = await client.complete(role, {
      system,
      turns: [{ role: 'user', blocks: [{ type: 'text', text: user }] }],
      tools: [],
      maxTokens,
    });
    return reply.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
  };
}
