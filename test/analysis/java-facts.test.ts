import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { extractJavaFacts } from '../../src/analysis/tree-sitter/java-facts.js';
import type { FileFacts } from '../../src/model/facts.js';
import { createTreeSitterParsers } from '../../src/scan/tree-sitter-parsers.js';
import { makeTempDir } from '../support/temp-dir.js';

const parsers = createTreeSitterParsers();
const FIXTURES = fileURLToPath(new URL('../fixtures/analysis/java', import.meta.url));

async function factsOf(source: string): Promise<FileFacts> {
  const tree = await parsers.parse('java', source);
  try {
    return extractJavaFacts(tree, source);
  } finally {
    tree.delete();
  }
}

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

describe('lines', () => {
  it('counts line, block and Javadoc comments as comments and text block lines as code', async () => {
    const facts = await factsOf(
      lines(
        '/**',
        ' * Javadoc.',
        ' */',
        'class A { // trailing',
        '  String sql = """',
        '',
        '    SELECT 1""";',
        '',
        '  /* block */',
        '}',
      ),
    );
    expect(facts.lines).toEqual({ code: 5, comment: 4, blank: 1 });
  });
});

describe('types', () => {
  it('reads extends, implements and abstract from classes, records and enums', async () => {
    const facts = await factsOf(
      lines(
        'public abstract class Repo<T> extends base.Store<T> implements Iterable<T>, java.io.Closeable {',
        '  abstract T load(String id);',
        '  public Repo() {}',
        '  class Inner {}',
        '}',
        'record Point(int x, int y) implements Comparable<Point> {',
        '  Point { }',
        '  public int compareTo(Point o) { return 0; }',
        '}',
        'enum Color implements Named { RED, GREEN; public String named() { return name(); } }',
        'interface Named { String named(); }',
        '@interface Marker {}',
      ),
    );
    expect(
      facts.classes.map((c) => [c.name, c.extends, c.implements, c.abstract, c.methods]),
    ).toEqual([
      ['Repo', 'base.Store', ['Iterable', 'java.io.Closeable'], true, 2],
      ['Inner', null, [], false, 0],
      ['Point', null, ['Comparable'], false, 2],
      ['Color', null, ['Named'], false, 1],
    ]);
    expect(facts.abstractions.map((a) => [a.name, a.kind, a.span])).toEqual([
      ['Repo', 'abstract-class', { start: 1, end: 5 }],
      ['Named', 'interface', { start: 11, end: 11 }],
    ]);
  });

  it('is static-only when every member is static; a constructor or an enum is not', async () => {
    const facts = await factsOf(
      lines(
        'class Empty {}',
        'class Util { static int count; static { count = 1; } static void run() {} }',
        'class Guarded { private Guarded() {} static void run() {} }',
        'class Mixed { static void run() {} void stop() {} }',
        'class Initialised { static void run() {} { } }',
        'enum Level { LOW, HIGH; static Level parse(String s) { return LOW; } }',
        'class Holder { static class Nested {} }',
      ),
    );
    expect(facts.classes.map((c) => [c.name, c.staticOnly])).toEqual([
      ['Empty', false],
      ['Util', true],
      ['Guarded', false],
      ['Mixed', false],
      ['Initialised', false],
      ['Level', false],
      ['Holder', false],
      ['Nested', false],
    ]);
  });
});

describe('functions', () => {
  it('names methods Type.method, constructors Type.Type and lambdas after their variable', async () => {
    const facts = await factsOf(
      lines(
        'class Shop {',
        '  Runnable onOpen = () -> {};',
        '  Shop() { Runnable local = () -> {}; this.onClose = () -> {}; later(() -> {}); }',
        '  abstract void signature();',
        '  void serve() { new Thread(new Runnable() { public void run() {} }).start(); }',
        '}',
        'interface Greeter { default String greet() { return "hi"; } String name(); }',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.kind])).toEqual([
      ['Shop.onOpen', 'arrow'],
      ['Shop.Shop', 'constructor'],
      ['local', 'arrow'],
      ['onClose', 'arrow'],
      ['(anonymous)', 'arrow'],
      ['Shop.serve', 'method'],
      ['(anonymous).run', 'method'],
      ['Greeter.greet', 'method'],
    ]);
  });

  it('counts formal and varargs parameters and lambda parameters in every form', async () => {
    const facts = await factsOf(
      lines(
        'class P {',
        '  void a(int x, @Nullable final String y, Object... rest) {}',
        '  void b(P this, int x) {}',
        '  void c() { f(x -> x); f((x, y) -> x); f((int x, int y) -> x); f(() -> 1); }',
        '}',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.parameters])).toEqual([
      ['P.a', 3],
      ['P.b', 1],
      ['P.c', 0],
      ['(anonymous)', 1],
      ['(anonymous)', 2],
      ['(anonymous)', 2],
      ['(anonymous)', 0],
    ]);
  });

  it('counts every kind of decision point, lambdas excluded', async () => {
    const facts = await factsOf(
      lines(
        'class D {',
        '  int decide(int x, List<Integer> xs) {',
        '    if (x > 0 && x < 10 || x == 42) {} else if (x < 0) {}',
        '    for (int i = 0; i < x; i++) {}',
        '    for (int v : xs) {}',
        '    while (x > 0) x--;',
        '    do { x++; } while (x < 0);',
        '    switch (x) { case 1, 2: break; case 3: break; default: }',
        '    int y = switch (x) { case 1 -> 10; default -> 0; };',
        '    try {} catch (IllegalStateException | IllegalArgumentException e) {} catch (Exception e) {}',
        '    xs.forEach(v -> { if (v > 0) {} });',
        '    return x > 0 ? y : -y;',
        '  }',
        '}',
      ),
    );
    // 1 + if ×2, &&, ||, for ×2, while, do, case ×3, catch ×2, ?:
    expect(facts.functions.map((f) => [f.name, f.complexity])).toEqual([
      ['D.decide', 15],
      ['(anonymous)', 2],
    ]);
  });

  it('lists callees in source order: methods, constructed types and super/this calls', async () => {
    const facts = await factsOf(
      lines(
        'class C extends B {',
        '  C() { super(make()); }',
        '  C(int x) { this(); list.add(new java.util.ArrayList<String>()); new Box<>().open(); }',
        '  void m() { run(new Task() { int size = count(); }); }',
        '}',
      ),
    );
    // An anonymous class body is no part of the method: `count()` initialises its field.
    expect(facts.functions.map((f) => [f.name, f.calls])).toEqual([
      ['C.C', ['super', 'make']],
      ['C.C', ['this', 'add', 'ArrayList', 'Box', 'open']],
      ['C.m', ['run', 'Task']],
    ]);
  });

  it('lists the callees that are chains of names, constructed types as written', async () => {
    const facts = await factsOf(
      lines(
        'class C {',
        '  Process p = Runtime.getRuntime().exec(cmd);',
        '  void m() { System.out.println(System.getenv("A")); run(); this.go(); new java.io.File("a"); }',
        '  void n() { new Box<String>(); list.get(0).add(1); super.m(); }',
        '}',
      ),
    );
    expect(facts.qualifiedCalls).toEqual([
      'Box',
      'Runtime.getRuntime',
      'System.getenv',
      'System.out.println',
      'java.io.File',
      'list.get',
      'run',
    ]);
  });
});

describe('imports, exports and mutable state', () => {
  it('reads single, on-demand, static and module imports as written', async () => {
    const facts = await factsOf(
      lines(
        'import java.util.List;',
        'import java.util.concurrent.*;',
        'import static org.junit.Assert.assertEquals;',
        'import static java.lang.Math.*;',
        'import com.example.Outer.Inner;',
        'class A {}',
      ),
    );
    expect(facts.imports.map((i) => [i.specifier, i.line])).toEqual([
      ['java.util.List', 1],
      ['java.util.concurrent.*', 2],
      ['org.junit.Assert.assertEquals', 3],
      ['java.lang.Math.*', 4],
      ['com.example.Outer.Inner', 5],
    ]);
    expect(facts.imports.map((i) => i.bindings)).toEqual([
      [{ imported: 'List', local: 'List' }],
      [{ imported: '*', local: '*' }],
      [{ imported: 'assertEquals', local: 'assertEquals' }],
      [{ imported: '*', local: '*' }],
      [{ imported: 'Inner', local: 'Inner' }],
    ]);
    expect(facts.imports.every((i) => !i.typeOnly && !i.reexport && !i.dynamic)).toBe(true);
  });

  it('exports public top-level types only', async () => {
    const facts = await factsOf(
      lines(
        'public class Api { public static class Nested {} }',
        'class Internal {}',
        'public interface Port {}',
        'public enum Mode { ON }',
        'public record Pair(int a, int b) {}',
      ),
    );
    expect(facts.exports.map((e) => [e.name, e.line])).toEqual([
      ['Api', 1],
      ['Port', 3],
      ['Mode', 4],
      ['Pair', 5],
    ]);
  });

  it('keeps static fields that are not final as mutable state', async () => {
    const facts = await factsOf(
      lines(
        'class Config {',
        '  static int retries = 3, timeout;',
        '  static final int MAX = 5;',
        '  private int instance;',
        '  static class Cache { static Map<String, String> entries; }',
        '}',
        'interface Defaults { int LIMIT = 1; static int OTHER = 2; }',
        'enum Mode { ON; static Mode current; }',
      ),
    );
    expect(facts.mutableState).toEqual([
      { name: 'retries', line: 2 },
      { name: 'timeout', line: 2 },
      { name: 'entries', line: 5 },
      { name: 'current', line: 8 },
    ]);
  });
});

describe('reflection, events and DI containers', () => {
  it('reports reflective calls and proxies, not their look-alikes', async () => {
    const facts = await factsOf(
      lines(
        'class R {',
        '  void f() throws Exception {',
        '    Class<?> type = Class.forName(name);',
        '    Object o = type.getDeclaredConstructor().newInstance();',
        '    type.getMethod("run").invoke(o);',
        '    Object p = Proxy.newProxyInstance(loader, interfaces, handler);',
        '    DocumentBuilderFactory.newInstance();',
        '    request.getMethod();',
        '    task.invoke();',
        '  }',
        '}',
      ),
    );
    expect(facts.reflection).toEqual([
      { kind: 'java-reflection', line: 3 },
      { kind: 'java-reflection', line: 4 },
      { kind: 'java-reflection', line: 4 },
      { kind: 'java-reflection', line: 5 },
      { kind: 'java-reflection', line: 5 },
      { kind: 'proxy', line: 6 },
    ]);
  });

  it('reports event subscriptions, Swing listeners included', async () => {
    const facts = await factsOf(
      lines(
        'class E {',
        '  void f() {',
        '    button.addActionListener(e -> save());',
        '    emitter.on("ready", this::start);',
        '    publisher.subscribe(subscriber);',
        '    support.addPropertyChangeListener("name", listener);',
        '    list.addAll(other);',
        '  }',
        '}',
      ),
    );
    expect(facts.eventSubscriptions).toEqual([
      { method: 'addActionListener', event: null, line: 3 },
      { method: 'on', event: 'ready', line: 4 },
      { method: 'subscribe', event: null, line: 5 },
      { method: 'addPropertyChangeListener', event: 'name', line: 6 },
    ]);
  });

  it('reports imports of DI containers, Spring only for its container packages', async () => {
    const facts = await factsOf(
      lines(
        'import javax.inject.Inject;',
        'import jakarta.inject.*;',
        'import dagger.Module;',
        'import org.springframework.beans.factory.annotation.Autowired;',
        'import org.springframework.stereotype.Service;',
        'import org.springframework.web.bind.annotation.GetMapping;',
        'import com.google.inject.Guice;',
        'class A {}',
      ),
    );
    expect(facts.diContainers).toEqual([
      { library: 'javax.inject', line: 1 },
      { library: 'jakarta.inject', line: 2 },
      { library: 'dagger', line: 3 },
      { library: 'org.springframework', line: 4 },
      { library: 'org.springframework', line: 5 },
      { library: 'com.google.inject', line: 7 },
    ]);
  });
});

describe('whole files', () => {
  it('reads every fact kind of a realistic file', async () => {
    const facts = await factsOf(readFileSync(join(FIXTURES, 'Catalog.java'), 'utf8'));
    expect(facts.lines).toEqual({ code: 53, comment: 4, blank: 15 });
    expect(
      facts.classes.map((c) => [c.name, c.extends, c.implements, c.staticOnly, c.methods]),
    ).toEqual([
      ['Catalog', 'AbstractRepository', ['Iterable', 'AutoCloseable'], false, 5],
      ['AbstractRepository', null, [], false, 2],
      ['Product', null, [], false, 0],
      ['Added', null, [], false, 0],
      ['Prices', null, [], true, 2],
    ]);
    expect(facts.abstractions.map((a) => [a.name, a.kind])).toEqual([
      ['AbstractRepository', 'abstract-class'],
      ['EventBus', 'interface'],
    ]);
    expect(facts.functions.find((f) => f.name === 'Catalog.find')).toEqual({
      name: 'Catalog.find',
      kind: 'method',
      span: { start: 31, end: 38 },
      loc: 8,
      complexity: 4,
      parameters: 1,
      calls: ['name', 'equals', 'hidden'],
    });
    expect(facts.functions.map((f) => f.name)).toEqual([
      'Catalog.byName',
      'Catalog.Catalog',
      '(anonymous)',
      'Catalog.iterator',
      'Catalog.find',
      'Catalog.call',
      'Catalog.close',
      'AbstractRepository.AbstractRepository',
      'Prices.withTax',
      'Prices.discount',
    ]);
    expect(facts.imports.map((i) => i.specifier)).toEqual([
      'java.lang.reflect.Method',
      'java.util.*',
      'java.util.Objects.requireNonNull',
      'com.google.inject.Inject',
    ]);
    expect(facts.exports).toEqual([{ name: 'Catalog', typeOnly: false, line: 12 }]);
    expect(facts.mutableState).toEqual([{ name: 'instances', line: 13 }]);
    expect(facts.reflection.map((r) => r.line)).toEqual([41, 42, 43]);
    expect(facts.eventSubscriptions).toEqual([
      { method: 'subscribe', event: 'product.added', line: 22 },
    ]);
    expect(facts.diContainers).toEqual([{ library: 'com.google.inject', line: 7 }]);
    expect(facts.diagnostics).toEqual([]);
  });

  it('keeps the facts of what parsed in a malformed file and names the broken line', async () => {
    const source = readFileSync(join(FIXTURES, 'Malformed.java'), 'utf8');
    const facts = await factsOf(source);
    expect(facts.diagnostics[0]).toEqual({ line: 6, column: 15, message: 'missing ")"' });
    expect(facts.functions.map((f) => f.name)).toContain('Malformed.intact');
    expect(facts.imports.map((i) => i.specifier)).toEqual(['java.util.List']);
    const { code, comment, blank } = facts.lines;
    expect(code + comment + blank).toBe(source.trimEnd().split('\n').length);
  });
});

/** The JDK's own sources, where a JDK with `lib/src.zip` is installed. */
const JDK_SOURCES = [
  '/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip',
  '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip',
].find((path) => existsSync(path));

function canUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('real code', () => {
  const itWithJdk = JDK_SOURCES !== undefined && canUnzip() ? it : it.skip;
  itWithJdk('reads java.util without throwing and with consistent counts', async () => {
    const folder = await makeTempDir('java-facts');
    try {
      execFileSync('unzip', [
        '-q',
        JDK_SOURCES ?? '',
        'java.base/java/util/*.java',
        '-d',
        folder.path,
      ]);
      const sources = join(folder.path, 'java.base/java/util');
      const files = readdirSync(sources).filter((name) => name.endsWith('.java'));
      const problems: string[] = [];
      let functions = 0;
      for (const name of files) {
        const source = readFileSync(join(sources, name), 'utf8');
        const facts = await factsOf(source);
        const physicalLines = source === '' ? 0 : source.replace(/\n$/, '').split('\n').length;
        const { code, comment, blank } = facts.lines;
        if (code + comment + blank !== physicalLines) problems.push(`${name}: line counts`);
        if (facts.diagnostics.length > 0) problems.push(`${name}: ${facts.diagnostics.join('; ')}`);
        functions += facts.functions.length;
      }
      expect(problems).toEqual([]);
      expect(functions).toBeGreaterThan(files.length);
    } finally {
      await folder.remove();
    }
  });
});
