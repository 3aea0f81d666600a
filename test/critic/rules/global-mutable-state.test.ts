import { describe, expect, it } from '@jest/globals';
import { globalMutableState } from '../../../src/critic/rules/global-mutable-state.js';
import { briefly, contextOf } from '../critic-support.js';

describe('global_mutable_state', () => {
  it('reports each module-level let and var, at its line', async () => {
    const context = await contextOf({
      'src/counter.ts':
        "import { x } from './x.js';\n\nexport let count = 0;\nvar seen = new Set<string>(), last = '';\n",
      'src/state.py': 'import os\n\nMAX = 3\ncache = {}\n\ndef put(k, v):\n    cache[k] = v\n',
    });
    const findings = globalMutableState.check(context);
    expect(briefly(findings)).toEqual([
      { ruleId: 'global_mutable_state', symbol: 'count', at: 'src/counter.ts:3' },
      { ruleId: 'global_mutable_state', symbol: 'seen', at: 'src/counter.ts:4' },
      { ruleId: 'global_mutable_state', symbol: 'last', at: 'src/counter.ts:4' },
      { ruleId: 'global_mutable_state', symbol: 'cache', at: 'src/state.py:4' },
    ]);
    expect(findings[0]?.message).toBe(
      'module-level variable count is mutable state shared by everything that imports src/counter.ts',
    );
  });

  it('does not report a top-level const, even one holding a mutable object, nor locals', async () => {
    const context = await contextOf({
      // Python: a logger, a compiled pattern, an alias and a table no function changes.
      'src/config.py': [
        'import logging, re',
        'log = logging.getLogger(__name__)',
        'word = re.compile("w+")',
        'parse = int',
        'settings = {"debug": False}',
        'def words(text):',
        '    log.debug(settings)',
        '    return word.findall(text)',
        '',
      ].join('\n'),
      // A test's fixture state: jest loads each test file on its own, nothing imports it.
      'test/counter.test.ts': 'let repo: string | undefined;\nexport const get = () => repo;\n',
      'src/cache.ts': [
        'export const cache = new Map<string, number>();',
        'export function bump(): number {',
        '  let total = 0;',
        '  for (var i = 0; i < 3; i++) total += i;',
        '  return total;',
        '}',
        'export class Store {',
        '  static count = 0;',
        '}',
        '',
      ].join('\n'),
    });
    expect(globalMutableState.check(context)).toEqual([]);
  });

  it('keeps repeated var declarations apart', async () => {
    const context = await contextOf({ 'src/legacy.js': 'var x = 1;\nvar x = 2;\n' });
    expect(globalMutableState.check(context).map((finding) => finding.symbol)).toEqual([
      'x',
      'x#2',
    ]);
  });
});
