import { describe, expect, it } from '@jest/globals';
import { diContainer } from '../../../src/critic/rules/di-container.js';
import { briefly, contextOf } from '../critic-support.js';

const CORE = 'paths:\n  core: [src/core/**]\n';
const WIRING = [
  "import { container } from 'tsyringe';",
  "import { Clock } from './clock.js';",
  '',
  "container.register('clock', { useClass: Clock });",
  'export const clock = container.resolve(Clock);',
  '',
].join('\n');

describe('di_container', () => {
  it('reports each container use in a core file as library:n', async () => {
    const context = await contextOf(
      { 'src/core/wiring.ts': WIRING, 'src/core/clock.ts': 'export class Clock {}\n' },
      CORE,
    );
    const findings = diContainer.check(context);
    expect(briefly(findings)).toEqual([
      { ruleId: 'di_container', symbol: 'tsyringe:1', at: 'src/core/wiring.ts:1' },
      { ruleId: 'di_container', symbol: 'tsyringe:2', at: 'src/core/wiring.ts:4' },
      { ruleId: 'di_container', symbol: 'tsyringe:3', at: 'src/core/wiring.ts:5' },
    ]);
    expect(findings[0]?.message).toBe(
      'core file src/core/wiring.ts uses the dependency-injection container tsyringe on line 1',
    );
  });

  it('does not report a container outside the core, nor in a test kept in the core', async () => {
    const context = await contextOf(
      {
        'src/cli/wiring.ts': WIRING,
        'src/core/wiring.test.ts': WIRING,
        'src/core/clock.ts': 'export class Clock {}\n',
      },
      CORE,
    );
    expect(context.project.facts.get('src/cli/wiring.ts')?.diContainers).toHaveLength(3);
    expect(diContainer.check(context)).toEqual([]);
  });
});
