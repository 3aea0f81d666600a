import { describe, expect, it } from '@jest/globals';
import { goConfigProblem, goImportResolver } from '../../../src/analysis/resolve/go-imports.js';

/** A resolver over a repository given as path → text (texts matter for go.mod and go.work only). */
function resolverFor(tree: Readonly<Record<string, string>>) {
  const configs = new Map(
    Object.entries(tree).filter(([path]) => /(^|\/)go\.(mod|work)$/.test(path)),
  );
  return goImportResolver(Object.keys(tree), configs);
}

const pkg = (...paths: string[]) => ({ kind: 'package', paths });
const external = (packageName: string) => ({ kind: 'external', packageName });
const builtin = { kind: 'builtin' };
const unresolved = { kind: 'unresolved' };

describe('goImportResolver', () => {
  it("resolves a module's import paths to every non-test file of the package's folder", () => {
    const resolve = resolverFor({
      'go.mod': 'module example.com/shop // the module\n\ngo 1.21\n',
      'main.go': '',
      'store/store.go': '',
      'store/cache_linux.go': '',
      'store/store_test.go': '',
      'store/testdata/fixture.go': '',
      'store/mem/mem.go': '',
    });
    expect(resolve('main.go', 'example.com/shop/store')).toEqual(
      pkg('store/store.go', 'store/cache_linux.go'),
    );
    expect(resolve('store/store_test.go', 'example.com/shop/store/mem')).toEqual(
      pkg('store/mem/mem.go'),
    );
    expect(resolve('store/store.go', 'example.com/shop')).toEqual(pkg('main.go'));
    // The module owns the path, but no folder holds the package: the go command fails.
    expect(resolve('main.go', 'example.com/shop/missing')).toEqual(unresolved);
    expect(resolve('main.go', 'example.com/shop/store/testdata')).toEqual(unresolved);
  });

  it('tells the standard library, cgo and other modules apart', () => {
    const resolve = resolverFor({ 'go.mod': 'module example.com/shop\n', 'main.go': '' });
    expect(resolve('main.go', 'fmt')).toEqual(builtin);
    expect(resolve('main.go', 'net/http')).toEqual(builtin);
    expect(resolve('main.go', 'C')).toEqual(builtin);
    expect(resolve('main.go', 'github.com/pkg/errors')).toEqual(external('github.com/pkg/errors'));
    expect(resolve('main.go', 'example.com/shopping')).toEqual(external('example.com/shopping'));
  });

  it('takes the nearest go.mod above the importing file, and a nested module owns its folders', () => {
    const resolve = resolverFor({
      'go.mod': 'module example.com/root\n',
      'api/api.go': '',
      'tools/go.mod': 'module "example.com/root/tools"\n',
      'tools/gen/gen.go': '',
      'tools/main.go': '',
    });
    expect(resolve('tools/main.go', 'example.com/root/tools/gen')).toEqual(pkg('tools/gen/gen.go'));
    // Without a replace or a workspace, the other module comes from the module proxy.
    expect(resolve('tools/main.go', 'example.com/root/api')).toEqual(
      external('example.com/root/api'),
    );
    // The folder lies under the root module's folder but belongs to the nested module.
    expect(resolve('api/api.go', 'example.com/root/tools/gen')).toEqual(
      external('example.com/root/tools/gen'),
    );
  });

  it("follows the importing module's replace directives to local folders", () => {
    const resolve = resolverFor({
      'app/go.mod': [
        'module example.com/app',
        'require example.com/lib v1.2.0',
        'replace (',
        '  example.com/lib v1.2.0 => ../lib // local copy',
        '  example.com/far => github.com/fork/far v1.0.0',
        ')',
      ].join('\n'),
      'app/main.go': '',
      'lib/go.mod': 'module example.com/lib\n',
      'lib/lib.go': '',
      'lib/sub/sub.go': '',
    });
    expect(resolve('app/main.go', 'example.com/lib/sub')).toEqual(pkg('lib/sub/sub.go'));
    expect(resolve('app/main.go', 'example.com/far')).toEqual(external('example.com/far'));
    // The replacement is the app's: the library itself does not reach the app.
    expect(resolve('lib/lib.go', 'example.com/app')).toEqual(external('example.com/app'));
  });

  it('leads an import two reachable modules could both provide to the packages of both', () => {
    const resolve = resolverFor({
      'go.mod': 'module example.com/m\n\nreplace example.com/m/b => ./internal/_x\n',
      'a/a.go': '',
      'b/b.go': '',
      'b/c/c.go': '',
      'internal/_x/go.mod': 'module example.com/m/b\n',
      'internal/_x/x.go': '',
    });
    // The go command refuses the ambiguous import; either way, neither module loses its edge.
    expect(resolve('a/a.go', 'example.com/m/b')).toEqual(pkg('internal/_x/x.go', 'b/b.go'));
    // The replacement holds no package c: the main module's is the one.
    expect(resolve('a/a.go', 'example.com/m/b/c')).toEqual(pkg('b/c/c.go'));
    expect(resolve('a/a.go', 'example.com/m/b/d')).toEqual(unresolved);
  });

  it('reaches every module a go.work uses from each of them', () => {
    const resolve = resolverFor({
      'go.work': 'go 1.21\n\nuse (\n\t./a\n\t./b\n)\n',
      'a/go.mod': 'module example.com/a\n',
      'a/a.go': '',
      'b/go.mod': 'module example.com/b\n',
      'b/b.go': '',
      'c/go.mod': 'module example.com/c\n',
      'c/c.go': '',
    });
    expect(resolve('a/a.go', 'example.com/b')).toEqual(pkg('b/b.go'));
    expect(resolve('b/b.go', 'example.com/a')).toEqual(pkg('a/a.go'));
    expect(resolve('a/a.go', 'example.com/c')).toEqual(external('example.com/c'));
    expect(resolve('c/c.go', 'example.com/a')).toEqual(external('example.com/a'));
  });

  it('leaves vendored copies external and reads the standard library as module std', () => {
    const vendored = resolverFor({
      'go.mod': 'module example.com/app\n',
      'main.go': '',
      'vendor/example.com/app/x/x.go': '',
      'vendor/github.com/pkg/errors/errors.go': '',
    });
    expect(vendored('main.go', 'github.com/pkg/errors')).toEqual(external('github.com/pkg/errors'));
    const std = resolverFor({
      'src/go.mod': 'module std\n',
      'src/encoding/json/decode.go': '',
      'src/encoding/encoding.go': '',
    });
    expect(std('src/encoding/json/decode.go', 'encoding')).toEqual(pkg('src/encoding/encoding.go'));
    expect(std('src/encoding/json/decode.go', 'fmt')).toEqual(builtin);
  });
});

describe('goConfigProblem', () => {
  it('names what makes the go command refuse a go.mod or go.work', () => {
    expect(goConfigProblem('go.mod', 'module example.com/m // the module\n')).toBeUndefined();
    expect(goConfigProblem('go.work', 'go 1.21\nuse (\n\t./a\n)\n')).toBeUndefined();
    expect(goConfigProblem('a/go.mod', 'go 1.21\n')).toMatch(/declares no module/);
    expect(goConfigProblem('go.mod', 'module a.com/x\nmodule a.com/y\n')).toMatch(/exactly one/);
    expect(goConfigProblem('go.work', 'use (\n\t./a\n')).toMatch(/never closed/);
  });
});
