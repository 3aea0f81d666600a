import { describe, expect, it } from '@jest/globals';
import { type ActionNote, type RunContext, runContext } from '../../src/agent/run-context.js';

const BASE = { system: 'system', tools: [], maxTokens: 100 };

/** One turn that reads `path`, whose content is `bytes` bytes long. */
function read(context: RunContext, turn: number, path: string, bytes: number): void {
  const id = `toolu_${turn}`;
  const result = { ok: true, output: { path, content: path[0]?.repeat(bytes) ?? '' } } as const;
  const note: ActionNote = { toolUseId: id, name: 'file_read', input: { path }, result };
  context.record(
    turn,
    [{ type: 'tool_use', id, name: 'file_read', input: { path } }],
    [{ type: 'tool_result', toolUseId: id, content: context.fitResult(result), isError: false }],
    [note],
  );
}

function sent(context: RunContext): string {
  const fit = context.request(BASE, 'Task: pinned');
  if (!fit.fits) throw new Error(`over the window: ${fit.tokens}`);
  return JSON.stringify(fit.request.turns);
}

describe('the run context', () => {
  it('drops the file read least recently, counting a second read as a use', () => {
    // A quarter of the window, 2,500 bytes, holds two of these files.
    const context = runContext({ windowTokens: 10_000, replyTokens: 100 });
    read(context, 1, 'a.ts', 1000);
    read(context, 2, 'b.ts', 1000);
    read(context, 3, 'a.ts', 1000);
    read(context, 4, 'c.ts', 1000);
    const turns = sent(context);
    expect(turns).toContain('a.ts: read at turn 1, read again at turn 3');
    expect(turns).toContain('b.ts: read at turn 2, dropped; read it again if needed');
    expect(turns).toContain('a'.repeat(1000));
    expect(turns).toContain('c'.repeat(1000));
    expect(turns).not.toContain('b'.repeat(1000));
    expect(turns.startsWith('[{"role":"user","blocks":[{"type":"text","text":"Task: pinned')).toBe(
      true,
    );
  });

  it('summarizes the oldest turns past three quarters of the window, keeping each refusal', () => {
    const context = runContext({ windowTokens: 4_000, replyTokens: 100 });
    const id = 'toolu_refused';
    const refusal = {
      ok: false,
      refusedBy: 'budget',
      error: 'After this action the run would cost 600 points, over budgets.change.block (500).',
    } as const;
    context.record(
      1,
      [{ type: 'tool_use', id, name: 'file_write', input: { path: 'x.ts', content: 'x' } }],
      [{ type: 'tool_result', toolUseId: id, content: context.fitResult(refusal), isError: true }],
      [
        {
          toolUseId: id,
          name: 'file_write',
          input: { path: 'x.ts', content: 'x' },
          result: refusal,
        },
      ],
    );
    for (let turn = 2; turn <= 20; turn += 1) read(context, turn, `f${turn}.ts`, 600);
    const fit = context.request(BASE, 'Task: pinned');
    if (!fit.fits) throw new Error(`over the window: ${fit.tokens}`);
    expect(fit.compacted).toBeGreaterThan(0);
    expect(fit.tokens).toBeLessThanOrEqual(2_000);
    const pinned = JSON.stringify(fit.request.turns[0]);
    expect(pinned).toContain('Earlier in this run (summarized):');
    expect(pinned).toContain(
      'turn 1: file_write x.ts → refused by budget: After this action the run would cost 600 points',
    );
    // The conversation still alternates: the pinned user turn, then the model's.
    expect(fit.request.turns[1]?.role).toBe('assistant');
  });

  it('cuts a result that alone passes its share head and tail, as JSON', () => {
    const context = runContext({ windowTokens: 4_000, replyTokens: 100 });
    const cut = context.fitResult({ ok: true, output: { content: 'z'.repeat(5_000) } });
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1_000);
    expect(JSON.parse(cut).output.truncated).toMatch(/…\[\d+ bytes omitted\]…/);
  });
});
