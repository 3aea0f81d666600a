import type { ConversationBlock, ConversationTurn, ModelRequest } from '../llm/model-client.js';
import { inputTokenBound } from '../llm/request-size.js';
import type { JsonValue, ToolResult } from './tool-contract.js';
import { truncateText } from './tools/truncate-text.js';

/**
 * The builder's context budget (cost_thresholds.context_tokens): what each request holds, so a
 * long run never grows past the model's window. A pinned text (the task, plan, budgets, notes)
 * opens every request; file contents the model read form a working set where the least recently
 * read give way to a one-line stub; past three quarters of the window the oldest exchanges give
 * way to a summary the run writes from its own record of them — deterministic, no model call, so
 * compacting costs nothing and cannot itself pass a cap. Sizes are counted as the spend caps
 * count them: one token per byte, an upper bound.
 */

export interface ContextLimits {
  readonly windowTokens: number;
  /** model_provider.max_tokens: the reply shares the window with the request. */
  readonly replyTokens: number;
}

/** What the loop did with one tool call: the summary and the working set are made from it. */
export interface ActionNote {
  readonly toolUseId: string;
  readonly name: string;
  readonly input: unknown;
  readonly result: ToolResult;
}

export interface FittedRequest {
  readonly request: ModelRequest;
  /** Its size as the caps count it, the reply included. */
  readonly tokens: number;
  /** Files whose contents were replaced by a stub for this request. */
  readonly dropped: readonly string[];
  /** Exchanges summarized for this request. */
  readonly compacted: number;
}

export type ContextFit =
  | ({ readonly fits: true } & FittedRequest)
  | { readonly fits: false; readonly tokens: number };

interface FileRead {
  readonly path: string;
  readonly turn: number;
  readonly bytes: number;
  readonly blocks: ConversationBlock[];
  readonly index: number;
  /** Order of reading: the lowest is the least recently used. */
  readonly used: number;
}

interface Exchange {
  readonly assistant: ConversationTurn;
  readonly answers: ConversationBlock[];
  readonly summary: readonly string[];
}

const SUMMARY_LINE_BYTES = 400;

export interface RunContext {
  /** A tool result as it joins the conversation: cut head and tail when alone it passes its share. */
  fitResult(result: ToolResult): string;
  /** One exchange: the model's turn, the run's answers, and what each action did. */
  record(
    turn: number,
    assistant: readonly ConversationBlock[],
    answers: readonly ConversationBlock[],
    actions: readonly ActionNote[],
  ): void;
  /** The request to send with `pinned` first, brought under the window, or how far over it stays. */
  request(base: Omit<ModelRequest, 'turns'>, pinned: string): ContextFit;
}

export function runContext(limits: ContextLimits): RunContext {
  // A quarter of the window each for the files kept whole and for any single tool result.
  const share = Math.max(256, Math.floor(limits.windowTokens / 4));
  const exchanges: Exchange[] = [];
  const summary: string[] = [];
  let reads: FileRead[] = [];
  let clock = 0;

  const stub = (read: FileRead, why: string) => {
    const block = read.blocks[read.index];
    if (block?.type !== 'tool_result') return;
    const output = { path: read.path, dropped: `${read.path}: read at turn ${read.turn}, ${why}` };
    read.blocks[read.index] = { ...block, content: JSON.stringify({ ok: true, output }) };
  };

  const build = (base: Omit<ModelRequest, 'turns'>, pinned: string) => {
    const earlier =
      summary.length === 0 ? '' : `\n\nEarlier in this run (summarized):\n${summary.join('\n')}`;
    const turns: ConversationTurn[] = [
      { role: 'user', blocks: [{ type: 'text', text: `${pinned}${earlier}` }] },
      ...exchanges.flatMap((each): ConversationTurn[] => [
        each.assistant,
        { role: 'user', blocks: each.answers },
      ]),
    ];
    const request: ModelRequest = { ...base, turns };
    return { request, tokens: inputTokenBound(request) + base.maxTokens };
  };

  return {
    fitResult(result) {
      const json = JSON.stringify(result);
      if (Buffer.byteLength(json) <= share) return json;
      // Still structured JSON: the result's own text, cut head and tail with the tools' marker.
      const cut = truncateText(json, share - 200);
      return JSON.stringify(
        result.ok
          ? { ok: true, output: { truncated: cut } }
          : { ok: false, error: truncateText(result.error, share - 200) },
      );
    },

    record(turn, assistant, answers, actions) {
      const blocks = [...answers];
      const lines = actions.map((action) => summaryLine(turn, action));
      const text = assistant.flatMap((block) => (block.type === 'text' ? [block.text] : []));
      if (text.length > 0)
        lines.unshift(
          `turn ${turn}, you said: ${truncateText(text.join(' '), SUMMARY_LINE_BYTES)}`,
        );
      exchanges.push({
        assistant: { role: 'assistant', blocks: assistant },
        answers: blocks,
        summary: lines,
      });
      for (const action of actions) {
        const read = fileReadOf(action);
        if (read === null) continue;
        const index = blocks.findIndex(
          (block) => block.type === 'tool_result' && block.toolUseId === action.toolUseId,
        );
        if (index < 0) continue;
        // The newest copy of a file is the one kept: an older one only repeats it.
        for (const older of reads.filter((each) => each.path === read.path))
          stub(older, `read again at turn ${turn}`);
        reads = reads.filter((each) => each.path !== read.path);
        clock += 1;
        reads.push({ ...read, turn, blocks, index, used: clock });
      }
    },

    request(base, pinned) {
      const dropped: string[] = [];
      let held = reads.reduce((sum, read) => sum + read.bytes, 0);
      while (held > share && reads.length > 1) {
        const oldest = reads.reduce((a, b) => (a.used <= b.used ? a : b));
        stub(oldest, 'dropped; read it again if needed');
        reads = reads.filter((each) => each !== oldest);
        held -= oldest.bytes;
        dropped.push(oldest.path);
      }
      let built = build(base, pinned);
      let compacted = 0;
      if (built.tokens > (limits.windowTokens * 3) / 4) {
        // Compacted in one go down to half the window, so the next turns keep a stable prefix.
        while (built.tokens > limits.windowTokens / 2 && exchanges.length > 1) {
          const oldest = exchanges.shift();
          if (oldest === undefined) break;
          summary.push(...oldest.summary);
          reads = reads.filter((read) => read.blocks !== oldest.answers);
          compacted += 1;
          built = build(base, pinned);
        }
      }
      if (built.tokens > limits.windowTokens) return { fits: false, tokens: built.tokens };
      return { fits: true, ...built, dropped, compacted };
    },
  };
}

function fileReadOf(action: ActionNote): { path: string; bytes: number } | null {
  if (action.name !== 'file_read' || !action.result.ok) return null;
  const output = action.result.output;
  if (!isRecord(output) || typeof output.path !== 'string' || typeof output.content !== 'string')
    return null;
  return { path: output.path, bytes: Buffer.byteLength(output.content) };
}

/** One action as the summary keeps it: the call, and what became of it (every refusal, every verdict). */
function summaryLine(turn: number, action: ActionNote): string {
  const input = isRecord(action.input) ? action.input : {};
  const what =
    typeof input.path === 'string'
      ? input.path
      : Array.isArray(input.argv)
        ? input.argv.join(' ')
        : truncateText(JSON.stringify(action.input) ?? '', 120);
  const { result } = action;
  const outcome = result.ok
    ? `ok${outcomeOf(result.output)}`
    : `${result.refusedBy === undefined ? 'failed' : `refused by ${result.refusedBy}`}: ${result.error}`;
  return truncateText(`turn ${turn}: ${action.name} ${what} → ${outcome}`, SUMMARY_LINE_BYTES);
}

/** The fields of a phase tool's answer that carry a decision: a plan accepted, a verification. */
function outcomeOf(output: JsonValue): string {
  if (!isRecord(output)) return '';
  const kept = ['accepted', 'passed', 'points', 'decision', 'phase'].filter(
    (key) => output[key] !== undefined,
  );
  return kept.length === 0
    ? ''
    : ` (${kept.map((key) => `${key} ${JSON.stringify(output[key])}`).join(', ')})`;
}

function isRecord(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
