import { describe, expect, it } from '@jest/globals';
import { unresolvedHeritage } from '../../../src/analysis/semantics/heritage.js';
import { depthsOf, heritageOf, implementationsOf } from './semantics-support.js';

const SHAPE = 'export interface Shape {\n  area(): number;\n}\n';

describe('implementations and inheritance across TypeScript files', () => {
  it('counts an interface implemented by two classes in two other files', async () => {
    const heritage = await heritageOf({
      'src/shape.ts': SHAPE,
      'src/circle.ts':
        "import type { Shape } from './shape.js';\nexport class Circle implements Shape {\n  area() { return 3; }\n}\n",
      'src/square.ts':
        "import { Shape } from './shape.js';\nexport class Square implements Shape {\n  area() { return 1; }\n}\n",
    });
    expect(implementationsOf(heritage)).toEqual({
      'src/shape.ts#Shape': {
        direct: ['src/circle.ts#Circle', 'src/square.ts#Square'],
        all: ['src/circle.ts#Circle', 'src/square.ts#Square'],
        concrete: ['src/circle.ts#Circle', 'src/square.ts#Square'],
      },
    });
  });

  it('follows an aliased import and a namespace import', async () => {
    const heritage = await heritageOf({
      'src/shape.ts': SHAPE,
      'src/circle.ts':
        "import { Shape as S } from './shape.js';\nexport class Circle implements S {\n  area() { return 3; }\n}\n",
      'src/square.ts':
        "import * as shapes from './shape.js';\nexport class Square implements shapes.Shape {\n  area() { return 1; }\n}\n",
    });
    expect(implementationsOf(heritage)['src/shape.ts#Shape']?.concrete).toEqual([
      'src/circle.ts#Circle',
      'src/square.ts#Square',
    ]);
  });

  it('follows a barrel: export * and export { A as B } through index files', async () => {
    const heritage = await heritageOf({
      'src/shapes/shape.ts': SHAPE,
      'src/shapes/base.ts': 'export abstract class Base {}\n',
      'src/shapes/index.ts':
        "export * from './shape.js';\nexport { Base as ShapeBase } from './base.js';\n",
      'src/index.ts': "export * from './shapes/index.js';\n",
      'src/app/circle.ts': [
        "import { Shape, ShapeBase } from '../index.js';",
        'export class Circle extends ShapeBase implements Shape {',
        '  area() { return 3; }',
        '}',
        '',
      ].join('\n'),
    });
    const circle = heritage.classes.find((cls) => cls.name === 'Circle');
    expect(circle?.extends?.target).toEqual({
      kind: 'declaration',
      file: 'src/shapes/base.ts',
      name: 'Base',
    });
    expect(circle?.implements.map((reference) => reference.target)).toEqual([
      { kind: 'declaration', file: 'src/shapes/shape.ts', name: 'Shape' },
    ]);
  });

  it('counts an abstract class implemented by one class once, and indirect implementations', async () => {
    const heritage = await heritageOf({
      'src/repository.ts': 'export abstract class Repository {\n  abstract find(): void;\n}\n',
      'src/sql.ts':
        "import { Repository } from './repository.js';\nexport class SqlRepository extends Repository {\n  find() {}\n}\n",
      'src/store.ts': SHAPE.replace('Shape', 'Store'),
      'src/base-store.ts':
        "import { Store } from './store.js';\nexport abstract class BaseStore implements Store {\n  abstract area(): number;\n}\n",
      'src/memory-store.ts':
        "import { BaseStore } from './base-store.js';\nexport class MemoryStore extends BaseStore {\n  area() { return 0; }\n}\n",
    });
    expect(implementationsOf(heritage)).toEqual({
      'src/base-store.ts#BaseStore': {
        direct: ['src/memory-store.ts#MemoryStore'],
        all: ['src/memory-store.ts#MemoryStore'],
        concrete: ['src/memory-store.ts#MemoryStore'],
      },
      'src/repository.ts#Repository': {
        direct: ['src/sql.ts#SqlRepository'],
        all: ['src/sql.ts#SqlRepository'],
        concrete: ['src/sql.ts#SqlRepository'],
      },
      'src/store.ts#Store': {
        direct: ['src/base-store.ts#BaseStore'],
        all: ['src/base-store.ts#BaseStore', 'src/memory-store.ts#MemoryStore'],
        concrete: ['src/memory-store.ts#MemoryStore'],
      },
    });
  });

  it('measures an inheritance depth of 3 across three files, with the chain', async () => {
    const heritage = await heritageOf({
      'src/a.ts': 'export class A {}\n',
      'src/b.ts': "import { A } from './a.js';\nexport class B extends A {}\n",
      'src/c.ts': "import { B } from './b.js';\nexport class C extends B {}\n",
      'src/d.ts': "import { C } from './c.js';\nexport default class D extends C {}\n",
    });
    expect(depthsOf(heritage)).toEqual({
      'src/a.ts#A': { depth: 0, chain: [] },
      'src/b.ts#B': { depth: 1, chain: ['src/a.ts#A'] },
      'src/c.ts#C': { depth: 2, chain: ['src/b.ts#B', 'src/a.ts#A'] },
      'src/d.ts#D': { depth: 3, chain: ['src/c.ts#C', 'src/b.ts#B', 'src/a.ts#A'] },
    });
  });

  it('pairs a default import with the class of `export default class`, named or not', async () => {
    const heritage = await heritageOf({
      'src/named.ts': 'export default class Named {}\n',
      'src/anonymous.ts': 'export default class {}\n',
      'src/separate.ts': 'class Separate {}\nexport default Separate;\n',
      'src/user.ts': [
        "import Named from './named.js';",
        "import Anonymous from './anonymous.js';",
        "import Separate from './separate.js';",
        'class A extends Named {}',
        'class B extends Anonymous {}',
        'class C extends Separate {}',
        '',
      ].join('\n'),
    });
    const targets = heritage.classes
      .filter((cls) => cls.file === 'src/user.ts')
      .map((cls) => cls.extends?.target);
    expect(targets).toEqual([
      { kind: 'declaration', file: 'src/named.ts', name: 'Named' },
      { kind: 'declaration', file: 'src/anonymous.ts', name: 'default' },
      // ExportFact does not say which local `export default X;` exports: not guessed.
      { kind: 'unresolved', reason: 'not-found', detail: 'default in src/separate.ts' },
    ]);
  });

  it('follows imported names exported again, and names a barrel takes from a package', async () => {
    const heritage = await heritageOf({
      'src/base.ts': 'export class Base {}\n',
      'src/again.ts':
        "import { Base } from './base.js';\nexport { Base };\nexport * from '@scope/widgets';\n",
      'src/user.ts':
        "import { Base, Widget } from './again.js';\nclass A extends Base {}\nclass B extends Widget {}\n",
    });
    expect(depthsOf(heritage)).toMatchObject({
      'src/user.ts#A': { depth: 1, chain: ['src/base.ts#Base'] },
      'src/user.ts#B': { depth: 1, chain: ['?Widget (external)'] },
    });
    expect(unresolvedHeritage(heritage).map((entry) => entry.detail)).toEqual(['@scope/widgets']);
  });

  it('searches a wide barrel to its last export *, and cuts an endless chain', async () => {
    const sources: Record<string, string> = {};
    const wide = Array.from({ length: 100 }, (_, index) => `export * from './m${index}.js';`);
    sources['src/index.ts'] = `${wide.join('\n')}\n`;
    for (let index = 0; index < 100; index++)
      sources[`src/m${index}.ts`] = `export const v${index} = 1;\n`;
    sources['src/m99.ts'] = 'export class Last {}\n';
    // 40 files, each re-exporting the next: longer than any real chain (MAX_DEPTH).
    for (let index = 0; index < 40; index++) {
      sources[`src/chain/c${index}.ts`] = `export { Far } from './c${index + 1}.js';\n`;
    }
    sources['src/chain/c40.ts'] = 'export class Far {}\n';
    sources['src/user.ts'] = [
      "import { Last } from './index.js';",
      "import { Far } from './chain/c0.js';",
      'class A extends Last {}',
      'class B extends Far {}',
      '',
    ].join('\n');
    const heritage = await heritageOf(sources);
    const user = heritage.classes.filter((cls) => cls.file === 'src/user.ts');
    expect(user.map((cls) => cls.extends?.target)).toEqual([
      { kind: 'declaration', file: 'src/m99.ts', name: 'Last' },
      { kind: 'unresolved', reason: 'too-deep', detail: 'Far: re-export chain too long' },
    ]);
  });

  it('ends a re-export cycle without hanging: the names are not found', async () => {
    const heritage = await heritageOf({
      'src/a.ts': "export * from './b.js';\nexport { Loop } from './b.js';\n",
      'src/b.ts': "export * from './a.js';\nexport { Loop } from './a.js';\n",
      'src/user.ts':
        "import { Missing, Loop } from './a.js';\nclass A extends Missing {}\nclass B implements Loop {}\n",
    });
    expect(unresolvedHeritage(heritage)).toEqual([
      {
        file: 'src/user.ts',
        name: 'A',
        relation: 'extends',
        written: 'Missing',
        reason: 'not-found',
        detail: 'Missing in src/a.ts',
      },
      {
        file: 'src/user.ts',
        name: 'B',
        relation: 'implements',
        written: 'Loop',
        reason: 'not-found',
        detail: 'Loop: re-export cycle through src/a.ts',
      },
    ]);
  });

  it('leaves a package base class unresolved and counts it as one level', async () => {
    const heritage = await heritageOf({
      'src/view.tsx': [
        "import React from 'react';",
        "import { EventEmitter } from 'node:events';",
        'export class View extends React.Component {}',
        'export class Page extends View {}',
        'export class Bus extends EventEmitter {}',
        'export class Mixed extends mixin(View) {}',
        '',
      ].join('\n'),
    });
    expect(depthsOf(heritage)).toEqual({
      'src/view.tsx#View': { depth: 1, chain: ['?React.Component (external)'] },
      'src/view.tsx#Page': {
        depth: 2,
        chain: ['src/view.tsx#View', '?React.Component (external)'],
      },
      'src/view.tsx#Bus': { depth: 1, chain: ['?EventEmitter (external)'] },
      'src/view.tsx#Mixed': { depth: 1, chain: ['?mixin(View) (expression)'] },
    });
    expect(unresolvedHeritage(heritage).map(({ written, detail }) => [written, detail])).toEqual([
      ['React.Component', 'react'],
      ['EventEmitter', 'node:events'],
      ['mixin(View)', 'mixin(View)'],
    ]);
  });

  it('counts no level for a builtin base the file neither declares nor imports', async () => {
    const heritage = await heritageOf({
      'src/errors.ts': [
        'export class AppError extends Error {}',
        'export class NotFound extends AppError {}',
        'export class Tags extends globalThis.Map<string, number> {}',
        'export class Button extends HTMLButtonElement {}',
        '',
      ].join('\n'),
      'src/own.ts':
        "import { Error } from './errors-base.js';\nexport class Mine extends Error {}\n",
    });
    expect(depthsOf(heritage)).toEqual({
      'src/errors.ts#AppError': { depth: 0, chain: [] },
      'src/errors.ts#NotFound': { depth: 1, chain: ['src/errors.ts#AppError'] },
      'src/errors.ts#Tags': { depth: 0, chain: [] },
      'src/errors.ts#Button': { depth: 0, chain: [] },
      'src/own.ts#Mine': { depth: 1, chain: ['?Error (not-found)'] },
    });
    expect(unresolvedHeritage(heritage).map(({ written, reason }) => [written, reason])).toEqual([
      ['Error', 'builtin'],
      ['globalThis.Map', 'builtin'],
      ['HTMLButtonElement', 'builtin'],
      ['Error', 'not-found'],
    ]);
  });

  it('follows CommonJS require bindings and exports', async () => {
    const heritage = await heritageOf({
      'lib/base.js': 'class Base {}\nexports.Base = Base;\n',
      'lib/index.js': "const { Base } = require('./base');\nexports.Base = Base;\n",
      'lib/child.js': "const lib = require('./index');\nclass Child extends lib.Base {}\n",
      'lib/other.js': "const Base = require('./base').Base;\nclass Other extends Base {}\n",
    });
    expect(depthsOf(heritage)).toMatchObject({
      'lib/child.js#Child': { depth: 1, chain: ['lib/base.js#Base'] },
      'lib/other.js#Other': { depth: 1, chain: ['lib/base.js#Base'] },
    });
  });
});
