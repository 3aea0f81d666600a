import { describe, expect, it } from '@jest/globals';
import { EXTRACTORS } from './support/typescript-extractors.js';

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

/** The same expectations, written by hand, for each extractor on its own. */
describe.each(EXTRACTORS)('%s: lines, classes and functions', (_, extract) => {
  it('counts code, comment and blank lines', async () => {
    const facts = await extract(
      lines(
        '// line comment',
        '/* block',
        '',
        '   still the block */',
        'const a = 1; // code with a trailing comment',
        '/* leading */ const b = `template',
        '',
        '// inside the template: code`;',
        '   ',
        '/** doc */ /* two */',
      ),
      'typescript',
    );
    expect(facts.lines).toEqual({ code: 4, comment: 5, blank: 1 });
  });

  it('counts a last line without a newline, and CRLF lines like LF lines', async () => {
    expect((await extract('a();\r\n\r\n// c\r\nb();', 'javascript')).lines).toEqual({
      code: 2,
      comment: 1,
      blank: 1,
    });
  });

  it('counts the lines of a broken file to its end, past the syntax error', async () => {
    const facts = await extract(
      lines(
        'function f(a: number {',
        '  return a;',
        '}',
        '// after the error',
        '/* a block',
        '',
        '   comment */',
        'const b = 1;',
      ),
      'typescript',
    );
    expect(facts.diagnostics.length).toBeGreaterThanOrEqual(1);
    expect(facts.lines).toEqual({ code: 4, comment: 4, blank: 0 });
  });

  it('describes classes: heritage without generic arguments, abstract, static-only, methods', async () => {
    const facts = await extract(
      lines(
        '@Dec()',
        'export abstract class Repo<T> extends a.Base<T> implements Store<T>, ns.Closeable {',
        '  constructor(private name: string) { super(); }',
        '  abstract check(): void;',
        '  get size() { return 1; }',
        '  save(a: string): void;',
        '  save(a: string) {}',
        '}',
        'class Tools { static x = 1; static run() {} }',
        'class Empty {}',
        'const Expression = class {};',
      ),
      'typescript',
    );
    expect(facts.classes).toEqual([
      {
        name: 'Repo',
        span: { start: 1, end: 8 },
        loc: 8,
        extends: 'a.Base',
        implements: ['Store', 'ns.Closeable'],
        abstract: true,
        staticOnly: false,
        methods: 4,
      },
      expect.objectContaining({ name: 'Tools', staticOnly: true, methods: 1, extends: null }),
      expect.objectContaining({ name: 'Empty', staticOnly: false, methods: 0 }),
    ]);
    expect(facts.abstractions).toEqual([
      { name: 'Repo', kind: 'abstract-class', span: { start: 1, end: 8 }, dataOnly: false },
    ]);
  });

  it('lists interfaces as abstractions, wherever they are declared', async () => {
    const facts = await extract(
      lines('export interface A {', '  m(): void;', '}', 'namespace N { interface B {} }'),
      'typescript',
    );
    expect(facts.abstractions).toEqual([
      { name: 'A', kind: 'interface', span: { start: 1, end: 3 }, dataOnly: false },
      { name: 'B', kind: 'interface', span: { start: 4, end: 4 }, dataOnly: true },
    ]);
  });

  it('tells an interface of data (properties, index signatures, accessors) from a contract', async () => {
    const facts = await extract(
      lines(
        'interface Options { name: string; onDone?: () => void; [key: string]: unknown; get size(): number; set size(v: number); }',
        'interface Store { load(): void; }',
        'interface Callable { (x: number): string; }',
        'interface Creates { new (): object; }',
        'interface Nested extends Store { inner: { method(): void }; }',
        'interface Named { get(): string; }',
      ),
      'typescript',
    );
    expect(facts.abstractions.map((fact) => [fact.name, fact.dataOnly])).toEqual([
      ['Options', true],
      ['Store', false],
      ['Callable', false],
      ['Creates', false],
      ['Nested', false],
      ['Named', false],
    ]);
  });

  it('counts what an interface inherits: data only when every base it extends is seen to be', async () => {
    const facts = await extract(
      lines(
        "import { Remote } from './remote';",
        'interface Point { x: number; }',
        'interface Point3 extends Point { z: number; }',
        'interface Deeper extends Point3, Point { w: number; }',
        'interface Service { run(): void; }',
        'interface Config extends Service { name: string; }',
        'interface Wrapped extends Config { extra: string; }',
        'interface FromImport extends Remote { id: string; }',
        'interface Qualified extends ns.Point { id: string; }',
        'interface Loop extends Cycle { a: string; }',
        'interface Cycle extends Loop { b: string; }',
        'interface Merged { a: string; }',
        'interface Merged { b(): void; }',
        'interface OnMerged extends Merged { c: string; }',
      ),
      'typescript',
    );
    expect(facts.abstractions.map((fact) => [fact.name, fact.dataOnly])).toEqual([
      ['Point', true],
      ['Point3', true],
      ['Deeper', true],
      ['Service', false],
      ['Config', false],
      ['Wrapped', false],
      ['FromImport', false],
      ['Qualified', false],
      ['Loop', true],
      ['Cycle', true],
      ['Merged', true],
      ['Merged', false],
      ['OnMerged', false],
    ]);
  });

  it('names functions by declaration, class, variable, property or default export', async () => {
    const facts = await extract(
      lines(
        'function f() {}',
        'class C { m() {} constructor() {} get g() { return 1; } field = () => 1; }',
        'const arrow = async () => {};',
        'const o = { p: function () {}, q() {}, "s-k": () => {} };',
        'a.b.c = () => {};',
        'list.map((x) => x);',
        'export default function () {}',
      ),
      'tsx',
    );
    expect(facts.functions.map(({ name, kind }) => `${kind} ${name}`)).toEqual([
      'function f',
      'method C.m',
      'constructor C.constructor',
      'accessor C.g',
      'arrow C.field',
      'arrow arrow',
      'function p',
      'method q',
      'arrow s-k',
      'arrow c',
      'arrow (anonymous)',
      'function default',
    ]);
  });

  it('counts every decision point once, excluding nested functions', async () => {
    const facts = await extract(
      lines(
        'function f(a, b) {',
        '  if (a) {} else if (b) {}',
        '  for (;;) {} for (const k in a) {} for (const v of b) {} while (a) {} do {} while (b);',
        '  switch (a) { case 1: case 2: break; default: }',
        '  try {} catch {}',
        '  const c = a ? a && b : a || b ?? 1;',
        '  a ||= 1; a &&= 2; a ??= 3; a?.b; a & b;',
        '  const nested = () => (a ? 1 : 2);',
        '}',
      ),
      'javascript',
    );
    expect(facts.functions.map((fn) => fn.complexity)).toEqual([1 + 17, 2]);
  });

  it('counts parameters without `this`, and spans and loc of functions', async () => {
    const facts = await extract(
      lines(
        'function f(this: Window, a: number, { b }: O, ...rest: number[]) {',
        '  // a comment',
        '',
        '  return a;',
        '}',
      ),
      'typescript',
    );
    expect(facts.functions[0]).toMatchObject({ parameters: 3, span: { start: 1, end: 5 }, loc: 3 });
  });

  it('lists callee names in source order, parentheses looked through, skipping computed ones', async () => {
    const facts = await extract(
      lines(
        'function f(a) {',
        '  plain(); a?.b(); a.b.c(); new X(); new ns.Y; a[k](); (a.b)(); g()();',
        '  a.first(inner()).last(); a.b!(); tag`t`; super.m(); import("./x"); require("y");',
        '  const g = () => notMine();',
        '}',
      ),
      'typescript',
    );
    expect(facts.functions[0]?.calls).toEqual([
      'plain',
      'b',
      'c',
      'X',
      'Y',
      'b',
      'g',
      'first',
      'inner',
      'last',
      'b',
      'tag',
      'm',
      'require',
    ]);
  });

  it('lists the callees that are chains of names, module level included, once each', async () => {
    const facts = await extract(
      lines(
        'function f(a) {',
        '  plain(); a?.b(); a.b.c(); new X(); new ns.Y; a[k](); (a.b)(); g()();',
        '  a.first(inner()).last(); a.b!(); tag`t`; super.m(); this.n(); plain();',
        '  const g = () => notMine();',
        '}',
        'fs.promises.writeFile("a", "b");',
        'type T = typeof import("x");',
      ),
      'typescript',
    );
    expect(facts.qualifiedCalls).toEqual([
      'X',
      'a.b',
      'a.b.c',
      'a.first',
      'fs.promises.writeFile',
      'g',
      'inner',
      'notMine',
      'ns.Y',
      'plain',
      'tag',
    ]);
  });
});
