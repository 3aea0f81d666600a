import type { ToolSpec } from '../llm/model-client.js';

/**
 * The contract between the builder's loop and its tools. A tool never mutates anything before
 * the loop's five gates have seen what it would do: mutating tools first describe their effect
 * (`preview`), the gates judge that, and only then does the loop call `apply`.
 */

/** Gather reads, Act changes, Verify runs the checks. Each phase offers only its tools. */
export type Phase = 'gather' | 'act' | 'verify';

/** 0 read the workspace, 1 edit files, 2 run allow-listed commands, 3 publish (off locally). */
export type Tier = 0 | 1 | 2 | 3;

export type GateName = 'phase' | 'cost' | 'budget' | 'tier' | 'safety';

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** What the model gets back for one tool call: structured JSON, never a bare string. */
export type ToolResult =
  | { readonly ok: true; readonly output: JsonValue }
  | {
      readonly ok: false;
      /** Set when a gate refused the action (rather than the action failing). */
      readonly refusedBy?: GateName | 'input' | 'path';
      readonly error: string;
      /** How the model can get what it wants another way (a cheaper change, an allowed path). */
      readonly hint?: string;
    };

/** One file as an action would leave it; `after: null` deletes, `before: null` creates. */
export interface FileEffect {
  /** Repository-relative, `/`-separated, already resolved by the path authority. */
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** What a tool would do, computed without side effects, for the gates to judge. */
export type ActionPreview =
  | { readonly kind: 'read' }
  | { readonly kind: 'files'; readonly effects: readonly FileEffect[] }
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  | { readonly kind: 'commit'; readonly message: string };

export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly tier: Tier;
  readonly phases: readonly Phase[];
  /** Validates the input and resolves its paths; a refusal here is returned to the model as is. */
  preview(input: unknown): Promise<ActionPreview | Extract<ToolResult, { ok: false }>>;
  /** Runs the action the gates allowed. Only ever called after `preview` on the same input. */
  apply(input: unknown): Promise<ToolResult>;
}
