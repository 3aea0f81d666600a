import { describe, expect, it } from '@jest/globals';
import { itemsOf, priceOf } from './pricing-support.js';

describe('abstractions', () => {
  it('prices a new interface at 25, plus its lines', async () => {
    const head = 'export const a = 1;\nexport interface Shape {\n  area(): number;\n}\n';
    const priced = await priceOf([{ path: 'src/shape.ts', base: 'export const a = 1;\n', head }]);
    expect(itemsOf(priced, 'abstractions')).toEqual([
      { points: 25, path: 'src/shape.ts', detail: 'new interface Shape' },
    ]);
    expect(priced.cost).toMatchObject({ loc: 3, abstractions: 25, total: 28 });
  });

  it('prices an interface of data like the type alias it could be: nothing', async () => {
    const head = [
      'export interface Options {',
      '  name: string;',
      '  onDone?: () => void;',
      '}',
      'export type Same = { name: string; onDone?: () => void };',
      '',
    ].join('\n');
    const priced = await priceOf([{ path: 'src/options.ts', head }]);
    expect(itemsOf(priced, 'abstractions')).toEqual([]);
    const removed = await priceOf([{ path: 'src/options.ts', base: head, head: 'export {};\n' }]);
    expect(itemsOf(removed, 'abstractions')).toEqual([]);
  });

  it('prices an interface of data that a class implements as an abstraction', async () => {
    const priced = await priceOf([
      { path: 'src/point.ts', head: 'export interface Point {\n  x: number;\n}\n' },
      {
        path: 'src/origin.ts',
        head: "import type * as p from './point.js';\nexport class Origin implements p.Point {\n  x = 0;\n}\n",
      },
    ]);
    expect(itemsOf(priced, 'abstractions')).toEqual([
      { points: 25, path: 'src/point.ts', detail: 'new interface Point' },
    ]);
  });

  it('matches a renamed file through its old path: its abstractions are not new', async () => {
    const text = 'export interface Shape {\n  area(): number;\n}\n';
    const priced = await priceOf([
      { path: 'src/geometry/shape.ts', oldPath: 'src/shape.ts', base: text, head: text },
    ]);
    expect(priced.cost.total).toBe(0);
  });

  it('credits a removed abstract class with 25', async () => {
    const base = 'export abstract class Repo {\n  abstract load(): void;\n}\nexport const a = 1;\n';
    const priced = await priceOf([{ path: 'src/repo.ts', base, head: 'export const a = 1;\n' }]);
    expect(itemsOf(priced, 'abstractions')).toEqual([
      { points: -25, path: 'src/repo.ts', detail: 'removes abstract class Repo' },
    ]);
  });

  it('prices a new class hierarchy level at 25', async () => {
    const base = 'export class Base {}\n';
    const head = 'export class Base {}\nexport class Child extends Base {}\n';
    const priced = await priceOf([{ path: 'src/a.ts', base, head }]);
    expect(itemsOf(priced, 'abstractions')).toEqual([
      { points: 25, path: 'src/a.ts', detail: 'new class hierarchy level: Child extends Base' },
    ]);
  });

  it('prices a class that starts extending one, and nets re-parenting to 0', async () => {
    const gains = await priceOf([
      { path: 'src/a.ts', base: 'class A {}\n', head: 'class A extends B {}\n' },
    ]);
    expect(gains.cost.abstractions).toBe(25);
    const moves = await priceOf([
      { path: 'src/a.ts', base: 'class A extends B {}\n', head: 'class A extends C {}\n' },
    ]);
    expect(itemsOf(moves, 'abstractions').map((item) => item.points)).toEqual([25, -25]);
    expect(moves.cost.abstractions).toBe(0);
  });

  it('prices no hierarchy level for a builtin base, and one for a package base', async () => {
    const head = [
      "import React from 'react';",
      'export class NotFound extends Error {}',
      'export class View extends React.Component {}',
      '',
    ].join('\n');
    const python = [
      'from typing import TypedDict',
      'class Movie(TypedDict):',
      '    title: str',
      'class Invalid(ValueError): pass',
      '',
    ].join('\n');
    const priced = await priceOf([
      { path: 'src/a.ts', head },
      { path: 'app/movie.py', head: python },
    ]);
    expect(itemsOf(priced, 'abstractions').map((item) => item.detail)).toEqual([
      'new class hierarchy level: View extends React.Component',
    ]);
  });

  it('reads Python protocols and Java interfaces', async () => {
    const python =
      'from typing import Protocol\nclass Greeter(Protocol):\n    def greet(self) -> str: ...\n';
    const java = 'interface Shape { double area(); }\n';
    const priced = await priceOf([
      { path: 'app/greeter.py', head: python },
      { path: 'src/Shape.java', head: java },
    ]);
    expect(itemsOf(priced, 'abstractions').map((item) => item.detail)).toEqual([
      'new protocol Greeter',
      'new interface Shape',
    ]);
  });
});
