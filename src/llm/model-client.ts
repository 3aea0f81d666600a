/**
 * The one interface between the builder (and model-assisted reflexion) and any language model.
 * Providers (Anthropic's Messages API, OpenAI-compatible servers) translate to and from these
 * shapes, so the agent's loop, its gates and its trajectory never see a provider's wire format.
 */

/** A tool the model may call: its name, what it does, and the JSON Schema of its input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export type ConversationBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      /** As the model sent it: unvalidated, possibly malformed. */
      readonly input: unknown;
    }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      /** Structured JSON, already truncated and scrubbed of secrets by the caller. */
      readonly content: string;
      readonly isError: boolean;
    };

export interface ConversationTurn {
  readonly role: 'user' | 'assistant';
  readonly blocks: readonly ConversationBlock[];
}

export interface ModelRequest {
  readonly system: string;
  readonly turns: readonly ConversationTurn[];
  readonly tools: readonly ToolSpec[];
  /** Most tokens the reply may hold: with the prompt's size, the worst case a cap must allow. */
  readonly maxTokens: number;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelReply {
  /** Text and tool_use blocks only. */
  readonly blocks: readonly ConversationBlock[];
  readonly stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'other';
  /** From the API's own `usage`, never estimated. */
  readonly usage: TokenUsage;
  /** Who answered after any fallback: the price table and the trajectory need it. */
  readonly provider: string;
  readonly model: string;
}

/** Planning asks for the plan and its estimate; building runs the tool loop. */
export type ModelRole = 'planning' | 'building';

/**
 * Completes one turn. Rejects with an AureusError that names the setting to check when no
 * provider in the chain answers, and with a SpendCapReached (see spend accounting) when the
 * worst case of the call would pass a cap: in that case nothing was sent.
 */
export interface ModelClient {
  complete(role: ModelRole, request: ModelRequest): Promise<ModelReply>;
}
