import { describe, expect, it } from '@jest/globals';
import { surfacesOf } from '../../src/pricing/price-security.js';
import { EXTRACTORS } from './support/typescript-extractors.js';

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

const staticImport = { typeOnly: false, reexport: false, dynamic: false };

/** The same expectations, written by hand, for each extractor on its own. */
describe.each(EXTRACTORS)('%s: modules, state, reflection, events, DI', (_, extract) => {
  it('reads every shape of import, and tells type-only ones', async () => {
    const facts = await extract(
      lines(
        "import d, { n as m } from './a.js';",
        "import * as ns from './b.js';",
        "import './c.js';",
        "import type { T } from './d.js';",
        "import { type A, type B } from './e.js';",
        "import { type C, r } from './f.js';",
        "import {} from './g.js';",
        "import fs = require('node:fs');",
        "export * from './h.js';",
        "export type { U } from './i.js';",
        "const lazy = () => import('./j.js');",
        'const req = require(`./k.js`);',
        "let t: import('./l.js').T;",
      ),
      'typescript',
    );
    const bind = (imported: string, local = imported) => ({ imported, local });
    // Nothing here is used: what binds values is kept only where value imports are preserved.
    const unused = ['preserved-values'];
    const typeNames = ['preserved-imports'];
    const always = ['always'];
    expect(facts.imports).toEqual([
      {
        specifier: './a.js',
        ...staticImport,
        bindings: [bind('default', 'd'), bind('n', 'm')],
        keptWhen: unused,
        line: 1,
      },
      {
        specifier: './b.js',
        ...staticImport,
        bindings: [bind('*', 'ns')],
        keptWhen: unused,
        line: 2,
      },
      { specifier: './c.js', ...staticImport, bindings: [], keptWhen: always, line: 3 },
      {
        specifier: './d.js',
        ...staticImport,
        typeOnly: true,
        bindings: [bind('T')],
        keptWhen: [],
        line: 4,
      },
      {
        specifier: './e.js',
        ...staticImport,
        typeOnly: true,
        bindings: [bind('A'), bind('B')],
        keptWhen: typeNames,
        line: 5,
      },
      {
        specifier: './f.js',
        ...staticImport,
        bindings: [bind('C'), bind('r')],
        keptWhen: unused,
        line: 6,
      },
      { specifier: './g.js', ...staticImport, bindings: [], keptWhen: typeNames, line: 7 },
      {
        specifier: 'node:fs',
        ...staticImport,
        bindings: [bind('*', 'fs')],
        keptWhen: unused,
        line: 8,
      },
      {
        specifier: './h.js',
        ...staticImport,
        reexport: true,
        bindings: [bind('*')],
        keptWhen: always,
        line: 9,
      },
      {
        specifier: './i.js',
        ...staticImport,
        typeOnly: true,
        reexport: true,
        bindings: [bind('U')],
        keptWhen: [],
        line: 10,
      },
      {
        specifier: './j.js',
        ...staticImport,
        dynamic: true,
        bindings: [],
        keptWhen: always,
        line: 11,
      },
      {
        specifier: './k.js',
        ...staticImport,
        dynamic: true,
        bindings: [bind('*', 'req')],
        keptWhen: always,
        line: 12,
      },
      {
        specifier: './l.js',
        ...staticImport,
        typeOnly: true,
        bindings: [],
        keptWhen: [],
        line: 13,
      },
    ]);
  });

  it('lists the names each import binds: aliases, string names, re-exports, require', async () => {
    const facts = await extract(
      lines(
        "import { default as D, 'a-b' as ab } from './a.js';",
        "export { A as B, default, C as default } from './b.js';",
        "export * as ns from './c.js';",
        "export * as 'n-s' from './d.js';",
        "const { a, b: c, d = 1, e: f = 2, ...rest } = require('./e.js');",
        "const { [key]: g, h: { i }, 'j-k': jk } = require('./f.js');",
        "const E = (require('./g.js')).E, [x] = require('./h.js');",
        "let m = require('./i.js')?.n, o = require('./j.js')['p'];",
        "q = require('./k.js');",
        "require('./l.js');",
        "const r = require('./m.js') as R, s = require('./n.js').t.u;",
      ),
      'typescript',
    );
    expect(facts.imports.map((fact) => [fact.specifier, fact.bindings])).toEqual([
      [
        './a.js',
        [
          { imported: 'default', local: 'D' },
          { imported: 'a-b', local: 'ab' },
        ],
      ],
      [
        './b.js',
        [
          { imported: 'A', local: 'B' },
          { imported: 'default', local: 'default' },
          { imported: 'C', local: 'default' },
        ],
      ],
      ['./c.js', [{ imported: '*', local: 'ns' }]],
      ['./d.js', [{ imported: '*', local: 'n-s' }]],
      [
        './e.js',
        [
          { imported: 'a', local: 'a' },
          { imported: 'b', local: 'c' },
          { imported: 'd', local: 'd' },
          { imported: 'e', local: 'f' },
        ],
      ],
      ['./f.js', [{ imported: 'j-k', local: 'jk' }]],
      ['./g.js', [{ imported: 'E', local: 'E' }]],
      ['./h.js', []],
      ['./i.js', [{ imported: 'n', local: 'm' }]],
      ['./j.js', []],
      ['./k.js', []],
      ['./l.js', []],
      ['./m.js', []],
      ['./n.js', []],
    ]);
  });

  it('lists exported names once, in source order, type-only when every declaration is', async () => {
    const facts = await extract(
      lines(
        'export const a = 1, { b, c: d } = o;',
        'export function f(x: string): void;',
        'export function f(x: unknown) {}',
        'export interface I {}',
        'export type I2 = string;',
        'export interface M {}',
        'export const M = 1;',
        'export { local as renamed, type T as default };',
        "export * from './star.js';",
        "export * as group from './group.js';",
        'namespace N { export const inner = 1; }',
      ),
      'typescript',
    );
    expect(
      facts.exports.map(
        ({ name, typeOnly, line }) => `${line} ${name}${typeOnly ? ' (type)' : ''}`,
      ),
    ).toEqual([
      '1 a',
      '1 b',
      '1 d',
      '2 f',
      '4 I (type)',
      '5 I2 (type)',
      '6 M',
      '8 renamed',
      '8 default (type)',
      '9 *',
      '10 group',
    ]);
  });

  it('reads CommonJS exports at the top level of a JavaScript file', async () => {
    const facts = await extract(
      lines('exports.a = exports.b = void 0;', 'module.exports.c = 1;', 'module.exports = {};'),
      'javascript',
    );
    expect(facts.exports.map((fact) => fact.name)).toEqual(['a', 'b', 'c', 'default']);
  });

  it('lists module-level let and var as mutable state, not const or nested ones', async () => {
    const facts = await extract(
      lines(
        'let a = 1, { b, c: [d] } = o;',
        'var e;',
        'export let f = 2;',
        'const g = 3;',
        'declare let h: number;',
        'function k() { let i = 1; }',
        'for (let j = 0; ; ) {}',
      ),
      'typescript',
    );
    expect(facts.mutableState).toEqual([
      { name: 'a', line: 1 },
      { name: 'b', line: 1 },
      { name: 'd', line: 1 },
      { name: 'e', line: 2 },
      { name: 'f', line: 3 },
    ]);
  });

  it('finds reflection: eval, Function, Proxy, Reflect, computed import and require', async () => {
    const facts = await extract(
      lines(
        'eval(code);',
        "new Function('return 1');",
        'new Proxy({}, {});',
        'Reflect.ownKeys(o);',
        "import('./' + name);",
        'require(name);',
        "import('./literal.js');",
      ),
      'javascript',
    );
    expect(facts.reflection).toEqual([
      { kind: 'eval', line: 1 },
      { kind: 'new-function', line: 2 },
      { kind: 'proxy', line: 3 },
      { kind: 'reflect', line: 4 },
      { kind: 'dynamic-import', line: 5 },
      { kind: 'dynamic-require', line: 6 },
    ]);
  });

  it('reads a module loaded through another loader than require as an import of it', async () => {
    const facts = await extract(
      lines(
        "import { createRequire } from 'node:module';",
        "module.require('./a.js');",
        'const load = createRequire(import.meta.url);',
        "load('./b.js');",
        'const same = require;',
        "same('./c.js');",
        "createRequire(import.meta.url)('./d.js');",
        "(0, require)('./e.js');",
        "(require as Loader)('./f.js');",
        'module.require(name);',
      ),
      'typescript',
    );
    const specifiers = facts.imports.filter((fact) => fact.dynamic).map((fact) => fact.specifier);
    expect(specifiers).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js']);
    expect(facts.reflection).toEqual([{ kind: 'dynamic-require', line: 10 }]);
  });

  it('reads a module loaded through a loader bound after its use, by assignment, or through require.main', async () => {
    // A declaration the call precedes in the text (`var` and functions are hoisted), and a
    // plain assignment, bind the loader as well as a declaration before the call does.
    const late = await extract(
      lines(
        "function run() { return load('child_process').spawnSync('sh'); }",
        'var load = require;',
      ),
      'javascript',
    );
    expect(late.imports.map((fact) => fact.specifier)).toEqual(['child_process']);
    expect([...surfacesOf(late).keys()]).toContain('process_spawn');
    const facts = await extract(
      lines(
        "require.main.require('./a.js');",
        "process.mainModule.require('./b.js');",
        'let later;',
        "function go() { return again('./c.js'); }",
        'later = require;',
        'const again = later;',
        "later('./d.js');",
      ),
      'javascript',
    );
    const specifiers = facts.imports.filter((fact) => fact.dynamic).map((fact) => fact.specifier);
    expect(specifiers).toEqual(['./a.js', './b.js', './c.js', './d.js']);
  });

  it('reads a module loaded through an escaped require, a destructured one, or a loader chosen by an expression', async () => {
    const facts = await extract(
      lines(
        "\\u0072equire('./a.js');",
        'const esc = \\u0072equire;',
        "esc('./b.js');",
        'const { require: picked } = module;',
        "picked('./c.js');",
        'let maybe;',
        'maybe ||= require;',
        "maybe('./d.js');",
        'const either = process.env.X ? require : require;',
        "either('./e.js');",
      ),
      'javascript',
    );
    const specifiers = facts.imports.map((fact) => fact.specifier);
    expect(specifiers).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js']);
  });

  it('finds eval called indirectly or through the global object', async () => {
    const facts = await extract(
      lines('(0, eval)(code);', 'globalThis.eval(code);', "window.Function('return 1')();"),
      'javascript',
    );
    expect(facts.reflection).toEqual([
      { kind: 'eval', line: 1 },
      { kind: 'eval', line: 2 },
      { kind: 'new-function', line: 3 },
    ]);
  });

  it('finds event subscriptions, with the event name when it is a literal', async () => {
    const facts = await extract(
      lines(
        "stream.on('data', f);",
        'el.addEventListener(`click`, f);',
        'source$.subscribe(f);',
        'emitter',
        "  .once('end', f);",
        "emitter.emit('data');",
      ),
      'javascript',
    );
    expect(facts.eventSubscriptions).toEqual([
      { method: 'on', event: 'data', line: 1 },
      { method: 'addEventListener', event: 'click', line: 2 },
      { method: 'subscribe', event: null, line: 3 },
      { method: 'once', event: 'end', line: 5 },
    ]);
  });

  it('finds DI containers: imports of DI libraries and calls on a container', async () => {
    const facts = await extract(
      lines(
        "import { Container } from 'inversify';",
        "import { Injectable } from '@nestjs/common';",
        "import { Controller } from '@nestjs/common';",
        'container.bind(A).to(B);',
        'this.appContainer.resolve(A);',
        "map.get('key');",
      ),
      'typescript',
    );
    expect(facts.diContainers).toEqual([
      { library: 'inversify', line: 1 },
      { library: '@nestjs/common', line: 2 },
      { library: 'inversify', line: 4 },
      { library: 'inversify', line: 5 },
    ]);
  });

  it('accepts what only a type checker rejects: a top-level return, a const without value', async () => {
    const script = await extract(lines('if (done) return;', 'exports.a = 1;'), 'javascript');
    expect(script.diagnostics).toEqual([]);
    expect(script.exports.map((fact) => fact.name)).toEqual(['a']);
    const declarations = await extract(lines('export const a: number;'), 'typescript');
    expect(declarations.diagnostics).toEqual([]);
    expect(declarations.exports.map((fact) => fact.name)).toEqual(['a']);
  });

  it('reports syntax errors as diagnostics, and TypeScript syntax in a JavaScript file', async () => {
    const broken = await extract(lines('function f( {', '  return 1;'), 'typescript');
    expect(broken.diagnostics.length).toBeGreaterThanOrEqual(1);
    expect(broken.diagnostics[0]).toEqual({
      line: expect.any(Number),
      column: expect.any(Number),
      message: expect.any(String),
    });
    const typed = await extract(lines('const a = 1;', 'let b: number = a;'), 'javascript');
    expect(typed.diagnostics[0]).toMatchObject({ line: 2 });
    expect((await extract(lines('let b: number = 1;'), 'typescript')).diagnostics).toEqual([]);
  });
});
