import { describe, expect, it } from '@jest/globals';
import { reflection } from '../../../src/critic/rules/reflection.js';
import { briefly, contextOf } from '../critic-support.js';

const EVALS = [
  'export function run(code: string): unknown {',
  '  return eval(code);',
  '}',
  'export const wrap = <T extends object>(target: T) => new Proxy(target, {});',
  'export const again = (code: string) => eval(code);',
  '',
].join('\n');

const fingerprints = async (sources: Record<string, string>) =>
  reflection.check(await contextOf(sources)).map((finding) => finding.fingerprint);

describe('reflection', () => {
  it('reports each reflection fact as kind:n, n counting per kind within the file', async () => {
    const findings = reflection.check(await contextOf({ 'src/run.ts': EVALS }));
    expect(briefly(findings)).toEqual([
      { ruleId: 'reflection', symbol: 'eval:1', at: 'src/run.ts:2' },
      { ruleId: 'reflection', symbol: 'proxy:1', at: 'src/run.ts:4' },
      { ruleId: 'reflection', symbol: 'eval:2', at: 'src/run.ts:5' },
    ]);
    expect(findings[0]?.message).toBe(
      'src/run.ts uses code evaluated from a string (eval) on line 2',
    );
  });

  it('keeps the symbols when reflection is added in another file or of another kind', async () => {
    const before = await fingerprints({ 'src/run.ts': EVALS });
    const after = await fingerprints({
      'src/other.ts': 'export const y = eval("1");\n',
      'src/run.ts': `export const f = new Function('return 1');\n${EVALS}`,
    });
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toHaveLength(before.length + 2);
  });

  it('makes exactly one new finding when one more eval is added above the others', async () => {
    const before = await fingerprints({ 'src/run.ts': EVALS });
    const after = await fingerprints({ 'src/run.ts': `export const z = eval('0');\n${EVALS}` });
    expect(after.filter((fingerprint) => !before.includes(fingerprint))).toHaveLength(1);
    expect(before.every((fingerprint) => after.includes(fingerprint))).toBe(true);
  });

  it('does not report literal imports, a property named eval, nor tests and generated code', async () => {
    const context = await contextOf({
      'test/load.test.ts': 'export const load = (name: string) => import(name);\n',
      'src/api.generated.ts': "// @generated\nexport const run = () => eval('1');\n",
      'src/load.ts': [
        "const fs = require('node:fs');",
        "export const lazy = () => import('./x.js');",
        'export const safe = { eval: (s: string) => s.length };',
        "export const n = safe.eval('abc') + fs.constants.F_OK;",
        '',
      ].join('\n'),
    });
    expect(reflection.check(context)).toEqual([]);
  });
});
