import { describe, expect, it } from '@jest/globals';
import { pythonImports } from '../../../src/analysis/resolve/python-imports.js';
import type { ImportFact } from '../../../src/model/facts.js';

/** The resolver of a repository holding `paths`, with these config texts. */
function resolverOf(paths: readonly string[], configs: Record<string, string> = {}) {
  return pythonImports([...paths, ...Object.keys(configs)], new Map(Object.entries(configs)));
}

/** `from <specifier> import <names>` as the Python extractor records it. */
function fromImport(specifier: string, ...names: string[]): ImportFact {
  return {
    specifier,
    typeOnly: false,
    reexport: false,
    dynamic: false,
    keptWhen: ['always'],
    bindings: names.map((name) => ({ imported: name, local: name })),
    line: 1,
  };
}

describe('Python import resolution', () => {
  const flat = resolverOf([
    'app/__init__.py',
    'app/models.py',
    'app/db/__init__.py',
    'app/db/session.py',
    'app/db/mixins.py',
    'app/views.py',
    'app/views/__init__.py',
    'scripts/run.py',
    'scripts/helpers.py',
  ]);

  it('resolves `import a.b.c` to the module named, a package to its __init__.py', () => {
    expect(flat.resolve('app/views.py', 'app.db.session')).toEqual({
      kind: 'file',
      path: 'app/db/session.py',
    });
    expect(flat.resolve('app/models.py', 'app.db')).toEqual({
      kind: 'file',
      path: 'app/db/__init__.py',
    });
  });

  it('takes a package before a module of the same name, as the path finder does', () => {
    expect(flat.resolve('app/models.py', 'app.views')).toEqual({
      kind: 'file',
      path: 'app/views/__init__.py',
    });
  });

  it('says external for a top-level name found nowhere, unresolved below a repository package', () => {
    expect(flat.resolve('app/models.py', 'os.path')).toEqual({
      kind: 'external',
      packageName: 'os',
    });
    expect(flat.resolve('app/models.py', 'app.nothing')).toEqual({ kind: 'unresolved' });
    expect(flat.resolve('app/db/session.py', 'app.models.sub')).toEqual({ kind: 'unresolved' });
  });

  it('resolves relative imports against the importing file’s package', () => {
    expect(flat.resolve('app/db/session.py', '.mixins')).toEqual({
      kind: 'file',
      path: 'app/db/mixins.py',
    });
    expect(flat.resolve('app/db/session.py', '..models')).toEqual({
      kind: 'file',
      path: 'app/models.py',
    });
    expect(flat.resolve('app/db/__init__.py', '.session')).toEqual({
      kind: 'file',
      path: 'app/db/session.py',
    });
    expect(flat.resolve('app/db/session.py', '..')).toEqual({
      kind: 'file',
      path: 'app/__init__.py',
    });
    // Above the top-level package: Python raises ImportError.
    expect(flat.resolve('app/models.py', '..models')).toEqual({ kind: 'unresolved' });
  });

  it('searches a script’s own folder first, never a regular package’s', () => {
    expect(flat.resolve('scripts/run.py', 'helpers')).toEqual({
      kind: 'file',
      path: 'scripts/helpers.py',
    });
    expect(flat.resolve('app/models.py', 'views')).toEqual({
      kind: 'external',
      packageName: 'views',
    });
  });

  it('turns `from m import x` into an import of the submodule m.x, and keeps m for other names', () => {
    const facts = flat.graphImports('app/views.py', [
      fromImport('app.db', 'session', 'engine'),
      fromImport('.', 'models'),
      fromImport('app', '*'),
    ]);
    expect(
      facts.map(({ specifier, bindings }) => [specifier, bindings.map((b) => b.imported)]),
    ).toEqual([
      ['app.db', ['engine']],
      ['app.db.session', ['session']],
      ['.models', ['models']],
      ['app', ['*']],
    ]);
  });

  it('finds packages in a src/ layout and under namespace folders (no __init__.py)', () => {
    const src = resolverOf([
      'src/shop/__init__.py',
      'src/shop/cart.py',
      'tests/test_cart.py',
      'ns/part/mod.py',
    ]);
    expect(src.resolve('tests/test_cart.py', 'shop.cart')).toEqual({
      kind: 'file',
      path: 'src/shop/cart.py',
    });
    expect(src.resolve('src/shop/cart.py', 'ns.part.mod')).toEqual({
      kind: 'file',
      path: 'ns/part/mod.py',
    });
    expect(src.resolve('src/shop/cart.py', 'ns.part')).toEqual({ kind: 'unresolved' });
  });

  it.each([
    [
      'setuptools where',
      { 'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["lib"]\n' },
    ],
    [
      'setuptools package-dir',
      { 'pyproject.toml': '[tool.setuptools]\npackage-dir = {"" = "lib"}\n' },
    ],
    [
      'poetry packages',
      { 'pyproject.toml': '[tool.poetry]\npackages = [{ include = "shop", from = "lib" }]\n' },
    ],
    [
      'hatch wheel packages',
      { 'pyproject.toml': '[tool.hatch.build.targets.wheel]\npackages = ["lib/shop"]\n' },
    ],
    [
      'setup.cfg package_dir',
      { 'setup.cfg': '[options]\npackage_dir =\n    = lib\npackages = find:\n' },
    ],
    ['setup.cfg find where', { 'setup.cfg': '[options.packages.find]\nwhere = lib\n' }],
  ])('finds the source root %s names', (_, configs) => {
    const resolver = resolverOf(
      ['lib/shop/__init__.py', 'lib/shop/cart.py', 'tests/test_cart.py'],
      configs,
    );
    expect(resolver.resolve('tests/test_cart.py', 'shop.cart')).toEqual({
      kind: 'file',
      path: 'lib/shop/cart.py',
    });
  });

  it('places a package where package-dir names its folder, for its own project’s files', () => {
    const resolver = resolverOf(
      [
        'code/shop_impl/__init__.py',
        'svc/api/x/__init__.py',
        'svc/api/x/y.py',
        'svc/api/run.py',
        'run.py',
      ],
      {
        'pyproject.toml': '[tool.setuptools.package-dir]\nshop = "code/shop_impl"\n',
        'svc/api/setup.cfg': '[metadata]\nname = x\n',
      },
    );
    expect(resolver.resolve('run.py', 'shop')).toEqual({
      kind: 'file',
      path: 'code/shop_impl/__init__.py',
    });
    expect(resolver.resolve('svc/api/run.py', 'x.y')).toEqual({
      kind: 'file',
      path: 'svc/api/x/y.py',
    });
    // A nested project's roots are its own: the root project's files do not search them.
    expect(resolver.resolve('run.py', 'x.y')).toEqual({ kind: 'external', packageName: 'x' });
    // Nor do its files take the root project's pins.
    expect(resolver.resolve('svc/api/run.py', 'shop')).toEqual({
      kind: 'external',
      packageName: 'shop',
    });
  });

  it('searches as usual for a package pinned to a folder that holds none', () => {
    const resolver = resolverOf(['app/__init__.py', 'app/a.py', 'app/b.py'], {
      'pyproject.toml': '[tool.setuptools.package-dir]\napp = "nothing"\n',
    });
    expect(resolver.resolve('app/a.py', 'app.b')).toEqual({ kind: 'file', path: 'app/b.py' });
  });

  it('lets a config change only the files under its folder', () => {
    const paths = [
      'app/__init__.py',
      'app/a.py',
      'app/b.py',
      'aaa/app/__init__.py',
      'aaa/app/b.py',
    ];
    const resolver = resolverOf(paths, {
      'tests/fixtures/pyproject.toml': '[tool.setuptools.package-dir]\napp = "aaa/app"\n',
      'aaa/pyproject.toml': '',
    });
    expect(resolver.resolve('app/a.py', 'app.b')).toEqual({ kind: 'file', path: 'app/b.py' });
    expect(resolver.resolve('aaa/app/b.py', 'app.b')).toEqual({
      kind: 'file',
      path: 'aaa/app/b.py',
    });
  });

  it('resolves a relative import from the file’s own package, not another project’s', () => {
    const service = (name: string) => [
      `${name}/pyproject.toml`,
      `${name}/app/__init__.py`,
      `${name}/app/main.py`,
      `${name}/app/config.py`,
    ];
    const resolver = resolverOf([...service('svc_a'), ...service('svc_b')], {
      'svc_a/pyproject.toml': '',
      'svc_b/pyproject.toml': '',
    });
    expect(resolver.resolve('svc_b/app/main.py', '.config')).toEqual({
      kind: 'file',
      path: 'svc_b/app/config.py',
    });
    expect(resolver.resolve('svc_b/app/main.py', 'app.config')).toEqual({
      kind: 'file',
      path: 'svc_b/app/config.py',
    });
    expect(resolver.resolve('svc_b/app/__init__.py', '.')).toEqual({
      kind: 'file',
      path: 'svc_b/app/__init__.py',
    });
  });

  it.each([
    ['pyproject.toml', '[tool.setuptools\n', 'not valid TOML'],
    ['setup.cfg', 'package_dir = lib\n', 'line 1 comes before any [section]'],
    ['setup.cfg', '[options]\npackages find\n', 'line 2 is neither'],
  ])('reports a %s it cannot parse, whose roots are then unknown', (path, text, says) => {
    const resolver = resolverOf(['lib/shop/__init__.py', 'run.py'], { [path]: text });
    expect(resolver.unparsable).toEqual([{ path, problem: expect.stringContaining(says) }]);
    expect(resolver.unparsable[0]?.problem).toContain('To resolve');
  });

  it('does work per import that does not grow with the number of projects', () => {
    // Counted, not timed: each lookup is a Set.has on the repository's paths or folders.
    const work = (projects: number): number => {
      const paths = Array.from({ length: projects }, (_, i) => [
        `p${i}/pyproject.toml`,
        `p${i}/m.py`,
      ]);
      const configs = Object.fromEntries(paths.map(([config]) => [config ?? '', '']));
      const resolver = resolverOf(
        paths.map(([, module]) => module ?? ''),
        configs,
      );
      const has = Set.prototype.has;
      let calls = 0;
      Set.prototype.has = function counted(this: Set<unknown>, value: unknown) {
        calls++;
        return has.call(this, value);
      };
      try {
        for (let i = 0; i < projects; i++)
          resolver.graphImports(`p${i}/m.py`, [fromImport('missing', 'x'), fromImport('m', 'y')]);
      } finally {
        Set.prototype.has = has;
      }
      return calls;
    };
    const small = work(200);
    expect(work(800)).toBeLessThanOrEqual(small * 4 * 1.1);
  });
});
