import { describe, expect, it } from '@jest/globals';
import { singleImplementationPass } from '../../../src/reflexion/passes/single-implementation.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

const SHAPE = [
  "import type { Point } from './point.js';",
  '',
  '/** Anything with an area. */',
  'export interface Shape {',
  '  area(): number;',
  '  center(): Point;',
  '}',
  '',
].join('\n');

const CIRCLE = [
  "import type { Point } from './point.js';",
  "import type { Shape } from './shape.js';",
  '',
  'export class Circle implements Shape {',
  '  constructor(private readonly radius: number) {}',
  '  area(): number {',
  '    return Math.PI * this.radius ** 2;',
  '  }',
  '  center(): Point {',
  '    return { x: 0, y: 0 };',
  '  }',
  '}',
  '',
].join('\n');

const REPORT = [
  "import type { Shape } from './shape.js';",
  '',
  'export function report(shape: Shape): string {',
  '  return String(shape.area());',
  '}',
  '',
  'export function first(shapes: readonly Shape[]): Shape | undefined {',
  '  return shapes[0];',
  '}',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'src/point.ts': 'export interface Point {\n  x: number;\n  y: number;\n}\n',
  'src/shape.ts': SHAPE,
  'src/circle.ts': CIRCLE,
  'src/report.ts': REPORT,
  'src/main.ts': [
    "import { Circle } from './circle.js';",
    "import { report } from './report.js';",
    '',
    'export const text = report(new Circle(2));',
    '',
  ].join('\n'),
};

/** The files a proposal changes, after it. */
function changed(files: Record<string, string>, proposalIndex = 0): Record<string, string | null> {
  const proposal = runPass(singleImplementationPass, files)[proposalIndex];
  if (proposal === undefined) throw new Error('no proposal');
  const after = applyEdits(files, proposal.edits);
  return Object.fromEntries(proposal.edits.map((edit) => [edit.path, after[edit.path] ?? null]));
}

describe('single-implementation', () => {
  it('points the users of an interface at its only class and removes the interface', () => {
    const proposals = runPass(singleImplementationPass, FILES);
    expect(proposals.map(({ title, path, line }) => ({ title, path, line }))).toEqual([
      {
        title: 'Remove interface `Shape`: `Circle` is its only implementation',
        path: 'src/shape.ts',
        line: 4,
      },
    ]);
    expect(changed(FILES)).toEqual({
      'src/shape.ts': null,
      'src/circle.ts': CIRCLE.replace("import type { Shape } from './shape.js';\n", '').replace(
        ' implements Shape',
        '',
      ),
      'src/report.ts': REPORT.replace(
        "import type { Shape } from './shape.js';",
        "import type { Circle } from './circle.js';",
      ).replaceAll('Shape', 'Circle'),
    });
  });

  it('keeps the interface file when it has other code, importing the class there', () => {
    const files = {
      ...FILES,
      'src/shape.ts': `${SHAPE}\nexport function total(shapes: readonly Shape[]): number {\n  return shapes.length;\n}\n`,
    };
    expect(changed(files)['src/shape.ts']).toBe(
      [
        "import type { Circle } from './circle.js';",
        '',
        'export function total(shapes: readonly Circle[]): number {',
        '  return shapes.length;',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('rewrites an import of the interface into one of the class from the same module', () => {
    const files = {
      'src/shapes.ts': [
        'export interface Shape {',
        '  area(): number;',
        '}',
        '',
        'export class Square implements Shape {',
        '  area(): number {',
        '    return 1;',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': [
        "import type { Shape } from './shapes.js';",
        '',
        'export const area = (shape: Shape): number => shape.area();',
        '',
      ].join('\n'),
    };
    expect(changed(files)).toEqual({
      'src/shapes.ts': 'export class Square {\n  area(): number {\n    return 1;\n  }\n}\n',
      'src/use.ts': [
        "import type { Square } from './shapes.js';",
        '',
        'export const area = (shape: Square): number => shape.area();',
        '',
      ].join('\n'),
    });
  });

  it('removes a declarations-only abstract class, with the `override`s and `super()` it needed', () => {
    const files = {
      'src/repository.ts': [
        'export abstract class Repository {',
        '  abstract load(id: string): string;',
        '  abstract readonly name: string;',
        '}',
        '',
      ].join('\n'),
      'src/memory.ts': [
        "import { Repository } from './repository.js';",
        '',
        'export class MemoryRepository extends Repository {',
        "  readonly name = 'memory';",
        '  constructor() {',
        '    super();',
        '  }',
        '  override load(id: string): string {',
        '    return id;',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': [
        "import type { Repository } from './repository.js';",
        "import { MemoryRepository } from './memory.js';",
        '',
        "export const read = (repository: Repository): string => repository.load('x');",
        'export const value = read(new MemoryRepository());',
        '',
      ].join('\n'),
    };
    const proposals = runPass(singleImplementationPass, files);
    expect(proposals.map((proposal) => proposal.title)).toEqual([
      'Remove abstract class `Repository`: `MemoryRepository` is its only implementation',
    ]);
    expect(changed(files)).toEqual({
      'src/repository.ts': null,
      'src/memory.ts': [
        'export class MemoryRepository {',
        "  readonly name = 'memory';",
        '  load(id: string): string {',
        '    return id;',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': [
        "import { MemoryRepository } from './memory.js';",
        '',
        "export const read = (repository: MemoryRepository): string => repository.load('x');",
        'export const value = read(new MemoryRepository());',
        '',
      ].join('\n'),
    });
  });

  it('only looks in scope, but follows references everywhere', () => {
    expect(runPass(singleImplementationPass, FILES, ['src/circle.ts', 'src/report.ts'])).toEqual(
      [],
    );
    expect(runPass(singleImplementationPass, FILES, ['src/shape.ts'])).toHaveLength(1);
  });

  describe('refuses', () => {
    const refused: Record<string, Record<string, string>> = {
      'an interface exported from a package entry': {
        'packages/api/index.ts': 'export interface Plugin {\n  run(): void;\n}\n',
        'packages/app/plugin.ts': [
          "import type { Plugin } from '../api/index.js';",
          'export class Logger implements Plugin {',
          '  run(): void {}',
          '}',
          'export const start = (plugin: Plugin): void => plugin.run();',
          '',
        ].join('\n'),
      },
      'an interface with two implementations': {
        ...FILES,
        'src/square.ts': [
          "import type { Point } from './point.js';",
          "import type { Shape } from './shape.js';",
          'export class Square implements Shape {',
          '  area(): number {',
          '    return 1;',
          '  }',
          '  center(): Point {',
          '    return { x: 1, y: 1 };',
          '  }',
          '}',
          '',
        ].join('\n'),
      },
      'an interface also implemented by an object literal': {
        ...FILES,
        'src/unit.ts': [
          "import type { Shape } from './shape.js';",
          'export const unit: Shape = { area: () => 1, center: () => ({ x: 0, y: 0 }) };',
          '',
        ].join('\n'),
      },
      'an interface an untyped object literal fits': {
        ...FILES,
        'src/unit.ts': [
          "import { report } from './report.js';",
          'const unit = { area: () => 1, center: () => ({ x: 0, y: 0 }) };',
          'export const text = report(unit);',
          '',
        ].join('\n'),
      },
      'an interface another class fits without saying so': {
        ...FILES,
        'src/dot.ts': [
          "import type { Point } from './point.js';",
          'export class Dot {',
          '  area(): number {',
          '    return 0;',
          '  }',
          '  center(): Point {',
          '    return { x: 0, y: 0 };',
          '  }',
          '}',
          '',
        ].join('\n'),
      },
      'an abstract class with a concrete method': {
        'src/base.ts': [
          'export abstract class Base {',
          '  abstract id(): string;',
          '  describe(): string {',
          '    return this.id();',
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/thing.ts': [
          "import { Base } from './base.js';",
          'export class Thing extends Base {',
          "  id(): string {\n    return 'thing';\n  }",
          '}',
          'export const name = (base: Base): string => base.describe();',
          '',
        ].join('\n'),
      },
      'a generic interface': {
        'src/box.ts': [
          'export interface Box<T> {',
          '  get(): T;',
          '}',
          'export class NumberBox implements Box<number> {',
          '  get(): number {',
          '    return 1;',
          '  }',
          '}',
          'export const read = (box: Box<number>): number => box.get();',
          '',
        ].join('\n'),
      },
      'an interface that extends another': {
        ...FILES,
        'src/shape.ts': SHAPE.replace(
          'export interface Shape {',
          'interface Named {\n  name: string;\n}\nexport interface Shape extends Named {',
        ),
      },
      'an interface extended by another': {
        ...FILES,
        'src/solid.ts': [
          "import type { Shape } from './shape.js';",
          'export interface Solid extends Shape {',
          '  volume(): number;',
          '}',
          '',
        ].join('\n'),
      },
      'an interface declared twice (merged)': {
        ...FILES,
        'src/shape.ts': `${SHAPE}export interface Shape {\n  label?: string;\n}\n`,
      },
      'an interface re-exported': {
        ...FILES,
        'src/public.ts': "export type { Shape } from './shape.js';\n",
      },
      'an interface re-exported wholesale': {
        ...FILES,
        'src/public.ts': "export * from './shape.js';\n",
      },
      'an interface a cast makes up an implementation of': {
        ...FILES,
        'src/fake.ts': [
          "import type { Shape } from './shape.js';",
          'export const parse = (text: string): Shape => JSON.parse(text) as Shape;',
          '',
        ].join('\n'),
      },
      'a class that is not exported but needed elsewhere': {
        ...FILES,
        'src/circle.ts': CIRCLE.replace('export class Circle', 'class Circle').concat(
          'export const make = (): Shape => new Circle(1);\n',
        ),
        'src/main.ts':
          "import { make } from './circle.js';\nimport { report } from './report.js';\n\nexport const text = report(make());\n",
      },
      'an import that would close a cycle': {
        ...FILES,
        'src/circle.ts': CIRCLE.replace(
          "import type { Shape } from './shape.js';",
          "import type { Shape } from './shape.js';\nimport { report } from './report.js';",
        ).concat('export const describeUnit = (): string => report(new Circle(1));\n'),
      },
      'a user file where the class name means something else': {
        ...FILES,
        'src/report.ts': `${REPORT}export const Circle = 'circle';\n`,
      },
      'an abstract class used as a value': {
        'src/base.ts': 'export abstract class Base {\n  abstract id(): string;\n}\n',
        'src/thing.ts': [
          "import { Base } from './base.js';",
          'export class Thing extends Base {',
          "  id(): string {\n    return 'thing';\n  }",
          '}',
          'export const isBase = (value: unknown): boolean => value instanceof Base;',
          '',
        ].join('\n'),
      },
      'an abstract class whose subclass passes arguments to super()': {
        'src/base.ts': 'export abstract class Base {\n  abstract id(): string;\n}\n',
        'src/thing.ts': [
          "import { Base } from './base.js';",
          'export class Thing extends Base {',
          '  constructor() {',
          '    // @ts-expect-error: the base takes no argument',
          '    super(1);',
          '  }',
          "  id(): string {\n    return 'thing';\n  }",
          '}',
          '',
        ].join('\n'),
      },
    };
    it.each(Object.keys(refused))('%s', (name) => {
      const files = refused[name];
      if (files === undefined) throw new Error(name);
      expect(runPass(singleImplementationPass, files)).toEqual([]);
    });
  });
});
