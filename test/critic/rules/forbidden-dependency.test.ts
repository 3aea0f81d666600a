import { describe, expect, it } from '@jest/globals';
import { forbiddenDependency } from '../../../src/critic/rules/forbidden-dependency.js';
import { briefly, contextOf } from '../critic-support.js';

const LAYERS = [
  'modules:',
  '  ui: { paths: ["src/ui/**"], may_import: [domain] }',
  '  domain: { paths: ["src/domain/**"], may_not_import: [ui, db] }',
  '  db: { paths: ["src/db/**"], may_not_import: [ui] }',
  '',
].join('\n');

const SOURCES = {
  'src/ui/button.ts': "import { order } from '../domain/order.js';\nexport const button = order;\n",
  'src/ui/menu.ts': "import { button } from './button.js';\nexport const menu = button;\n",
  'src/domain/order.ts': 'export const order = 1;\n',
  'src/db/store.ts': "import { order } from '../domain/order.js';\nexport const store = order;\n",
  'src/util/log.ts': "import { button } from '../ui/button.js';\nexport const log = button;\n",
};

describe('forbidden_dependency', () => {
  it('allows what the modules allow: listed modules, imports inside a module, files in no module', async () => {
    expect(forbiddenDependency.check(await contextOf(SOURCES, LAYERS))).toEqual([]);
    expect(forbiddenDependency.check(await contextOf(SOURCES))).toEqual([]);
  });

  it('reports each importing line, naming both modules and the rule it breaks', async () => {
    const context = await contextOf(
      {
        ...SOURCES,
        'src/ui/table.ts':
          "import { store } from '../db/store.js';\nimport { log } from '../util/log.js';\nimport { store as again } from '../db/store.js';\nexport const table = [store, log, again];\n",
        'src/db/query.ts':
          "import { order } from '../domain/order.js';\n\nimport { menu } from '../ui/menu.js';\nexport const query = [order, menu];\n",
      },
      LAYERS,
    );
    const findings = forbiddenDependency.check(context);
    expect(briefly(findings)).toEqual([
      { ruleId: 'forbidden_dependency', symbol: 'db → ui', at: 'src/db/query.ts:3' },
      { ruleId: 'forbidden_dependency', symbol: 'ui → db', at: 'src/ui/table.ts:1' },
      { ruleId: 'forbidden_dependency', symbol: 'ui → db#2', at: 'src/ui/table.ts:3' },
    ]);
    expect(findings[0]?.message).toBe(
      'src/db/query.ts imports src/ui/menu.ts of module ui, but module db may not import ui (modules.db.may_not_import). Move the code it needs into a module it may import, invert the dependency (the other module calls in, or receives what it needs), or change `modules` in the policy in a reviewed change.',
    );
    expect(findings[1]?.message).toContain(
      'module ui may import only domain (modules.ui.may_import)',
    );
  });

  it('lets type-only imports through only where type_only_allowed says so', async () => {
    const sources = {
      ...SOURCES,
      'src/db/row.ts':
        "import type { Button } from '../ui/button.js';\nexport type Row = { button: Button };\n",
      'src/ui/button.ts': 'export type Button = number;\nexport const button = 1;\n',
    };
    expect(briefly(forbiddenDependency.check(await contextOf(sources, LAYERS)))).toEqual([
      { ruleId: 'forbidden_dependency', symbol: 'db → ui', at: 'src/db/row.ts:1' },
    ]);
    const allowed = LAYERS.replace(
      'may_not_import: [ui] }',
      'may_not_import: [ui], type_only_allowed: true }',
    );
    expect(forbiddenDependency.check(await contextOf(sources, allowed))).toEqual([]);
  });

  it('judges product files only: a test may import any module', async () => {
    const context = await contextOf(
      {
        ...SOURCES,
        'src/db/store.test.ts': "import { menu } from '../ui/menu.js';\nexport const t = menu;\n",
      },
      LAYERS,
    );
    expect(forbiddenDependency.check(context)).toEqual([]);
  });

  it('reports a file two modules take, which the policy check cannot see from the globs, and imports into it as into each', async () => {
    const context = await contextOf(SOURCES, `${LAYERS}  shared: { paths: ["src/*/order.*"] }\n`);
    expect(briefly(forbiddenDependency.check(context))).toEqual([
      { ruleId: 'forbidden_dependency', symbol: 'in domain, shared', at: 'src/domain/order.ts:1' },
      // An import into it is judged as an import of each module that takes it.
      { ruleId: 'forbidden_dependency', symbol: 'ui → shared', at: 'src/ui/button.ts:1' },
    ]);
  });
});
