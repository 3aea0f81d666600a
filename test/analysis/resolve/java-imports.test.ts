import { describe, expect, it } from '@jest/globals';
import { buildModuleGraph } from '../../../src/analysis/graph/module-graph.js';
import { javaImportGraph } from '../../../src/analysis/resolve/java-imports.js';
import { extractJavaFacts } from '../../../src/analysis/tree-sitter/java-facts.js';
import type { FileFacts } from '../../../src/model/facts.js';
import { createTreeSitterParsers } from '../../../src/scan/tree-sitter-parsers.js';

const parsers = createTreeSitterParsers();

async function factsOf(files: Record<string, string>): Promise<Map<string, FileFacts>> {
  const facts = new Map<string, FileFacts>();
  for (const [path, text] of Object.entries(files)) {
    const tree = await parsers.parse('java', text);
    try {
      facts.set(path, extractJavaFacts(tree, text));
    } finally {
      tree.delete();
    }
  }
  return facts;
}

/** Each edge as `from -> to @ first line`. */
async function edgesOf(files: Record<string, string>): Promise<string[]> {
  const java = javaImportGraph(await factsOf(files));
  const graph = buildModuleGraph(java.imports, java.resolve);
  return graph.edges.map(({ from, to, imports }) => `${from} -> ${to} @${imports[0]?.line}`);
}

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

describe('Java imports by package and class', () => {
  it('finds a type by the package its file declares, not by the file path', async () => {
    expect(
      await edgesOf({
        'app/Main.java': lines('package app;', 'import a.b.C;', 'class Main { C c; }'),
        'module-x/src/C.java': lines('package a.b;', 'public class C {}'),
        'a/b/C.java': lines('package other;', 'public class C {}'),
      }),
    ).toEqual(['app/Main.java -> module-x/src/C.java @2']);
  });

  it("leads nested, static and static on-demand imports to the outer type's file", async () => {
    const imports = ['a.b.C.Inner', 'static a.b.D.make', 'static a.b.E.*'];
    for (const imported of imports) {
      expect(
        await edgesOf({
          'Main.java': lines('package app;', `import ${imported};`, 'class Main {}'),
          'C.java': lines('package a.b;', 'public class C { public static class Inner {} }'),
          'D.java': lines('package a.b;', 'public class D { static D make() { return null; } }'),
          'E.java': lines('package a.b;', 'public class E { static int x; }'),
        }),
      ).toHaveLength(1);
    }
  });

  it('leads an on-demand import to the types the file uses from the package, at the first use', async () => {
    expect(
      await edgesOf({
        'Main.java': lines(
          'package app;',
          'import a.b.*;',
          'class Main {',
          '  void run() { Used.go(); }',
          '}',
        ),
        'Used.java': lines('package a.b;', 'public class Used { static void go() {} }'),
        'Unused.java': lines('package a.b;', 'public class Unused {}'),
      }),
    ).toEqual(['Main.java -> Used.java @4']);
  });

  it('leads every kind of use of a same-package type to its file, non-public types included', async () => {
    const uses = [
      'Other field;',
      'Object o = Other.make();',
      'int n = Other.COUNT + 1;',
      'Runnable r = Other::run;',
      '@Other void m() {}',
      'Class<?> k = Other.class;',
      'void m(Object o) { if (o instanceof Other) {} }',
      'void m() throws Other {}',
      'java.util.List<Other> list;',
    ];
    for (const use of uses) {
      expect(
        await edgesOf({
          'p/Main.java': lines('package p;', `class Main { ${use} }`),
          'p/Helpers.java': lines('package p;', 'public class Helpers {}', 'class Other {}'),
        }),
      ).toEqual(['p/Main.java -> p/Helpers.java @2']);
    }
  });

  it('resolves the unnamed package alone, and not from a named one', async () => {
    expect(
      await edgesOf({
        'A.java': lines('class A { B b; }'),
        'B.java': lines('class B { A a; }'),
        'p/C.java': lines('package p;', 'class C { A a; }'),
      }),
    ).toEqual(['A.java -> B.java @1', 'B.java -> A.java @1']);
  });

  it('leads a type declared by two files to both, so a copy never hides the real class', async () => {
    const cycle = {
      'src/main/java/com/x/A.java': lines('package com.x;', 'class A { B b; }'),
      'src/main/java/com/x/B.java': lines('package com.x;', 'class B { A a; }'),
    };
    expect(await edgesOf({ ...cycle, 'a/A.java': lines('package com.x;', 'class A {}') })).toEqual([
      'src/main/java/com/x/A.java -> src/main/java/com/x/B.java @2',
      'src/main/java/com/x/B.java -> a/A.java @2',
      'src/main/java/com/x/B.java -> src/main/java/com/x/A.java @2',
    ]);
  });

  it('has no edge to copies past the limit, and names the limit', async () => {
    const files: Record<string, string> = {};
    for (const copy of ['a', 'b', 'c']) files[`${copy}/A.java`] = lines('package x;', 'class A {}');
    for (const user of ['U', 'V'])
      files[`x/${user}.java`] = lines('package x;', `class ${user} { A a; }`);
    const facts = await factsOf(files);
    const within = javaImportGraph(facts, 6);
    expect(within.incomplete).toEqual([]);
    expect(buildModuleGraph(within.imports, within.resolve).edges).toHaveLength(6);
    const past = javaImportGraph(facts, 5);
    expect(buildModuleGraph(past.imports, past.resolve).edges).toEqual([]);
    expect(past.incomplete).toEqual([
      { path: 'x/V.java', problem: expect.stringContaining('past 5 edges to copies') },
    ]);
  });

  it('makes no edge of a file importing its own nested type', async () => {
    expect(
      await edgesOf({
        'p/Frame.java': lines(
          'package p;',
          'import static p.Frame.Kind.TEXT;',
          'import p.Frame.Kind;',
          'public class Frame { enum Kind { TEXT } Kind kind = TEXT; }',
        ),
      }),
    ).toEqual([]);
  });

  it('leads a member type a class inherits to the file of the supertype declaring it', async () => {
    expect(
      await edgesOf({
        'p/Connection.java': lines(
          'package p;',
          'public abstract class Connection { interface Publisher {} }',
        ),
        'p/SecureConnection.java': lines(
          'package p;',
          'abstract class SecureConnection extends Connection {}',
        ),
        'q/TlsConnection.java': lines(
          'package q;',
          'import p.*;',
          'class TlsConnection extends SecureConnection {',
          '  Publisher publisher;',
          '}',
        ),
      }),
    ).toEqual([
      'p/SecureConnection.java -> p/Connection.java @2',
      'q/TlsConnection.java -> p/Connection.java @4',
      'q/TlsConnection.java -> p/SecureConnection.java @3',
    ]);
  });

  it('follows a fully qualified name in code', async () => {
    expect(
      await edgesOf({
        'Main.java': lines('package app;', 'class Main {', '  Object o = a.b.C.make();', '}'),
        'C.java': lines('package a.b;', 'public class C {}'),
      }),
    ).toEqual(['Main.java -> C.java @3']);
  });

  it('lets an import by name and a nested type shadow same-package types of that name', async () => {
    expect(
      await edgesOf({
        'p/Main.java': lines(
          'package p;',
          'import java.util.List;',
          'class Main { List<String> a; Node b; static class Node {} }',
        ),
        'p/List.java': lines('package p;', 'class List {}'),
        'p/Node.java': lines('package p;', 'class Node {}'),
      }),
    ).toEqual([]);
  });

  it('answers external for what the repository does not declare', async () => {
    const java = javaImportGraph(await factsOf({ 'C.java': lines('package a.b;', 'class C {}') }));
    expect(java.resolve('C.java', 'java.util.List')).toEqual({
      kind: 'external',
      packageName: 'java.util',
    });
    expect(java.resolve('C.java', 'static org.lib.Util.go')).toMatchObject({ kind: 'external' });
    expect(java.resolve('C.java', 'a.b.Missing')).toMatchObject({ kind: 'external' });
    expect(java.resolve('C.java', 'a.b.C')).toEqual({ kind: 'file', path: 'C.java' });
  });

  it('records the package, the top-level types and the used names of a file', async () => {
    const facts = await factsOf({
      'Main.java': lines(
        'package a.b;',
        'import x.Y;',
        'public class Main<T> extends Base implements Map.Entry<T, T> {',
        '  static class Nested {}',
        '  Nested n = Y.make(a.b.C.D);',
        '}',
        'interface Second {}',
      ),
    });
    expect(facts.get('Main.java')?.java).toEqual({
      package: 'a.b',
      types: ['Main', 'Second'],
      references: [
        { name: 'Base', line: 3 },
        { name: 'Map.Entry', line: 3 },
        { name: 'Y', line: 5 },
        { name: 'a.b.C', line: 5 },
      ],
    });
  });
});
