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

  it('places a package where package-dir names its folder, and roots a nested project', () => {
    const resolver = resolverOf(
      ['code/shop_impl/__init__.py', 'svc/api/x/__init__.py', 'svc/api/x/y.py', 'run.py'],
      {
        'pyproject.toml': '[tool.setuptools.package-dir]\nshop = "code/shop_impl"\n',
        'svc/api/setup.cfg': '[metadata]\nname = x\n',
      },
    );
    expect(resolver.resolve('run.py', 'shop')).toEqual({
      kind: 'file',
      path: 'code/shop_impl/__init__.py',
    });
    expect(resolver.resolve('run.py', 'x.y')).toEqual({ kind: 'file', path: 'svc/api/x/y.py' });
  });

  it('reads no root from a pyproject.toml that is not TOML', () => {
    const resolver = resolverOf(['lib/shop/__init__.py', 'run.py'], {
      'pyproject.toml': '[tool.setuptools\n',
    });
    expect(resolver.resolve('run.py', 'shop')).toEqual({ kind: 'external', packageName: 'shop' });
  });
});
