import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { extractGoFacts } from '../../src/analysis/tree-sitter/go-facts.js';
import type { FileFacts } from '../../src/model/facts.js';
import { createTreeSitterParsers } from '../../src/scan/tree-sitter-parsers.js';

const parsers = createTreeSitterParsers();
const FIXTURES = fileURLToPath(new URL('../fixtures/analysis/go', import.meta.url));

async function factsOf(source: string): Promise<FileFacts> {
  const tree = await parsers.parse('go', source);
  try {
    return extractGoFacts(tree, source);
  } finally {
    tree.delete();
  }
}

const lines = (...source: string[]): string => `${source.join('\n')}\n`;
const inPackage = (...source: string[]): string => lines('package p', '', ...source);

describe('lines', () => {
  it('counts line and block comments as comments and raw string lines as code', async () => {
    const facts = await factsOf(
      inPackage('// doc', '/*', '', ' block */', 'var query = `SELECT *', '', 'FROM t`', ''),
    );
    expect(facts.lines).toEqual({ code: 4, comment: 4, blank: 2 });
  });
});

describe('types', () => {
  it('makes named structs classes, counting the methods declared on T and *T', async () => {
    const facts = await factsOf(
      inPackage(
        'type List[T any] struct {',
        '	items []T',
        '}',
        'func (l *List[T]) Push(v T) {}',
        'func (l List[T]) Len() int { return len(l.items) }',
        'func (Other) Len() int { return 0 }',
        'type ID int',
        'func main() { type local struct{} }',
      ),
    );
    expect(facts.classes).toEqual([
      {
        name: 'List',
        span: { start: 3, end: 5 },
        loc: 3,
        extends: null,
        implements: [],
        abstract: false,
        staticOnly: false,
        methods: 2,
      },
      expect.objectContaining({ name: 'local', methods: 0 }),
    ]);
  });

  it('makes interfaces abstractions, except type-set constraints', async () => {
    const facts = await factsOf(
      inPackage(
        'type (',
        '	Reader interface { Read(p []byte) (int, error) }',
        '	ReadCloser interface { Reader; io.Closer }',
        '	Any interface{}',
        '	Number interface { ~int | ~float64 }',
        '	Text interface { string | []byte }',
        ')',
      ),
    );
    expect(facts.abstractions.map((a) => [a.name, a.kind, a.span.start])).toEqual([
      ['Reader', 'interface', 4],
      ['ReadCloser', 'interface', 5],
      ['Any', 'interface', 6],
    ]);
    expect(facts.classes).toEqual([]);
  });
});

describe('functions', () => {
  it('names functions, methods by receiver type and function literals by what they are assigned to', async () => {
    const facts = await factsOf(
      inPackage(
        'var OnLoad = func() {}',
        'func (s *Server) Start() {',
        '	handler := func() {}',
        '	s.stop = func() {}',
        '	routes := map[string]func(){"home": func() {}}',
        '	opts := Options{Done: func() {}}',
        '	go func() {}()',
        '}',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.kind])).toEqual([
      ['OnLoad', 'function'],
      ['Server.Start', 'method'],
      ['handler', 'function'],
      ['stop', 'function'],
      ['home', 'function'],
      ['Done', 'function'],
      ['(anonymous)', 'function'],
    ]);
  });

  it('counts each declared parameter name, not the receiver or type parameters', async () => {
    const facts = await factsOf(
      inPackage(
        'func a(x, y int, s string) {}',
        'func b(int, string) {}',
        'func (r *R) c(format string, args ...any) {}',
        'func d[K comparable, V any](m map[K]V) {}',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.parameters])).toEqual([
      ['a', 3],
      ['b', 2],
      ['R.c', 2],
      ['d', 1],
    ]);
  });

  it('counts if, for, cases with a test, && and ||, nested literals excluded', async () => {
    const facts = await factsOf(
      inPackage(
        'func decide(x int, ch chan int) {',
        '	if x > 0 && x < 10 || x == 42 {',
        '	} else if x < 0 {',
        '	}',
        '	for i := range 3 { _ = i }',
        '	switch x { case 1, 2: ; case 3: ; default: }',
        '	switch v := any(x).(type) { case int: _ = v; default: }',
        '	select { case <-ch: ; default: }',
        '	check := func() bool { return x > 1 && x < 5 }',
        '	_ = check',
        '}',
      ),
    );
    // 1 + if ×2, &&, ||, for, case ×2, type case, select case
    expect(facts.functions.map((f) => [f.name, f.complexity])).toEqual([
      ['decide', 10],
      ['check', 2],
    ]);
  });

  it('lists callees in source order; calls of expressions are skipped', async () => {
    const facts = await factsOf(
      inPackage(
        'func run() {',
        '	defer cleanup()',
        '	fmt.Println(strings.ToUpper(name))',
        '	handlers[0]()',
        '	func() { inner() }()',
        '	x := new(T)',
        '}',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.calls])).toEqual([
      ['run', ['cleanup', 'Println', 'ToUpper', 'new']],
      ['(anonymous)', ['inner']],
    ]);
  });

  it('lists the callees that are chains of names, package level included', async () => {
    const facts = await factsOf(
      inPackage(
        'var cmd = exec.Command("ls")',
        'func run() {',
        '	fmt.Println(strings.ToUpper(name))',
        '	handlers[0]()',
        '	s.client.Do(req)',
        '	get().Close()',
        '}',
      ),
    );
    expect(facts.qualifiedCalls).toEqual([
      'exec.Command',
      'fmt.Println',
      'get',
      's.client.Do',
      'strings.ToUpper',
    ]);
  });
});

describe('imports, exports and mutable state', () => {
  it('reads every import spec with its own line, binding the package under its name', async () => {
    const facts = await factsOf(
      inPackage(
        'import "os"',
        'import (',
        '	"fmt"',
        '	str "strings"',
        '	_ "embed"',
        '	. "net/http"',
        '	"gopkg.in/yaml.v3"',
        ')',
      ),
    );
    const plain = { typeOnly: false, reexport: false, dynamic: false, keptWhen: ['always'] };
    const bound = (local: string) => [{ imported: '*', local }];
    expect(facts.imports).toEqual([
      { specifier: 'os', ...plain, bindings: bound('os'), line: 3 },
      { specifier: 'fmt', ...plain, bindings: bound('fmt'), line: 5 },
      { specifier: 'strings', ...plain, bindings: bound('str'), line: 6 },
      { specifier: 'embed', ...plain, bindings: bound('_'), line: 7 },
      { specifier: 'net/http', ...plain, bindings: bound('.'), line: 8 },
      // The last segment, by convention; the package clause inside says `yaml`.
      { specifier: 'gopkg.in/yaml.v3', ...plain, bindings: bound('yaml.v3'), line: 9 },
    ]);
  });

  it('marks a file whose build constraint requires the tag ignore as in no build', async () => {
    const built = async (...source: string[]) => (await factsOf(lines(...source))).buildIgnored;
    expect(await built('//go:build ignore', '', 'package main')).toBe(true);
    expect(await built('// Generates tables.', '//go:build ignore && linux', 'package main')).toBe(
      true,
    );
    expect(await built('// +build ignore', '', 'package main')).toBe(true);
    expect(await built('//go:build linux', '', 'package p')).toBeUndefined();
    expect(await built('//go:build !ignore', '', 'package p')).toBeUndefined();
    expect(await built('//go:build ignore || linux', '', 'package p')).toBeUndefined();
    // After the package clause it is a comment, not a constraint.
    expect(await built('package p', '', '//go:build ignore')).toBeUndefined();
  });

  it('exports capitalised package-level names, not methods or locals', async () => {
    const facts = await factsOf(
      inPackage(
        'const Version, build = "1", 2',
        'var Default = New()',
        'type Config struct{}',
        'type Alias = Config',
        'func New() *Config { var Local int; _ = Local; return nil }',
        'func (c *Config) Load() {}',
        'func helper() {}',
        'var Ünicode = 1',
      ),
    );
    expect(facts.exports.map((e) => [e.name, e.line])).toEqual([
      ['Version', 3],
      ['Default', 4],
      ['Config', 5],
      ['Alias', 6],
      ['New', 7],
      ['Ünicode', 10],
    ]);
    expect(facts.exports.every((e) => !e.typeOnly)).toBe(true);
  });

  it('keeps package vars as mutable state, except _, embeds, sentinel errors and compiled regexps', async () => {
    const facts = await factsOf(
      inPackage(
        'var count, total = 0, 0',
        'var (',
        '	cache = map[string]int{}',
        '	_ io.Reader = (*File)(nil)',
        '	//go:embed schema.json',
        '	schema []byte',
        '	ErrClosed = errors.New("closed")',
        '	errBusy = fmt.Errorf("busy")',
        '	Failure = errors.New("not a sentinel by name")',
        '	pattern = regexp.MustCompile(`a+`)',
        ')',
        'const Limit = 3',
        'func f() { var local = 1; _ = local }',
      ),
    );
    expect(facts.mutableState).toEqual([
      { name: 'count', line: 3 },
      { name: 'total', line: 3 },
      { name: 'cache', line: 5 },
      { name: 'Failure', line: 11 },
    ]);
  });
});

describe('reflection, events and DI containers', () => {
  it('reports calls into reflect under any import name, and plugin.Open', async () => {
    const facts = await factsOf(
      inPackage(
        'import (',
        '	rf "reflect"',
        '	"plugin"',
        '	"unsafe"',
        ')',
        'func f(x any) {',
        '	_ = rf.TypeOf(x)',
        '	p, _ := plugin.Open(path)',
        '	_ = unsafe.Pointer(nil)',
        '	_ = reflect.TypeOf(x)',
        '}',
      ),
    );
    expect(facts.reflection).toEqual([
      { kind: 'reflect', line: 9 },
      { kind: 'dynamic-import', line: 10 },
    ]);
  });

  it('reports event subscriptions with their literal event name', async () => {
    const facts = await factsOf(
      inPackage(
        'func f() {',
        '	bus.Subscribe("user.created", onCreated)',
        '	emitter.On(`ready`, start)',
        '	hub.SubscribeAsync(topic, handle, false)',
        '	list.Subscribers()',
        '}',
      ),
    );
    expect(facts.eventSubscriptions).toEqual([
      { method: 'Subscribe', event: 'user.created', line: 4 },
      { method: 'On', event: 'ready', line: 5 },
      { method: 'SubscribeAsync', event: null, line: 6 },
    ]);
  });

  it('reports imports of DI container libraries and their subpackages', async () => {
    const facts = await factsOf(
      inPackage(
        'import (',
        '	"go.uber.org/dig"',
        '	"go.uber.org/fx/fxevent"',
        '	"github.com/google/wire"',
        '	"github.com/samber/do/v2"',
        '	"go.uber.org/zap"',
        ')',
      ),
    );
    expect(facts.diContainers).toEqual([
      { library: 'go.uber.org/dig', line: 4 },
      { library: 'go.uber.org/fx', line: 5 },
      { library: 'github.com/google/wire', line: 6 },
      { library: 'github.com/samber/do', line: 7 },
    ]);
  });
});

describe('whole files', () => {
  it('reads every fact kind of a realistic file', async () => {
    const facts = await factsOf(readFileSync(join(FIXTURES, 'orders.go'), 'utf8'));
    expect(facts.lines).toEqual({ code: 56, comment: 4, blank: 14 });
    expect(facts.classes.map((c) => [c.name, c.methods])).toEqual([
      ['Order', 0],
      ['MemoryStore', 2],
    ]);
    expect(facts.abstractions.map((a) => a.name)).toEqual(['Store']);
    expect(facts.functions.map((f) => [f.name, f.complexity, f.parameters])).toEqual([
      ['MemoryStore.Get', 3, 1],
      ['MemoryStore.Put', 1, 1],
      ['Total', 3, 1],
      ['describe', 1, 2],
      ['(anonymous)', 1, 1],
    ]);
    expect(facts.functions[3]?.calls).toEqual(['Subscribe', 'TypeOf', 'Kind', 'Sprint']);
    expect(facts.imports.map((i) => i.specifier)).toEqual([
      'errors',
      'fmt',
      'reflect',
      'go.uber.org/fx',
    ]);
    expect(facts.exports.map((e) => e.name)).toEqual([
      'ErrNotFound',
      'DefaultLimit',
      'Order',
      'Store',
      'Number',
      'MemoryStore',
      'Total',
      'Module',
    ]);
    expect(facts.mutableState.map((m) => m.name)).toEqual(['registry', 'hooks', 'Module']);
    expect(facts.reflection).toEqual([{ kind: 'reflect', line: 70 }]);
    expect(facts.eventSubscriptions).toEqual([
      { method: 'Subscribe', event: 'order.created', line: 69 },
    ]);
    expect(facts.diContainers).toEqual([{ library: 'go.uber.org/fx', line: 9 }]);
    expect(facts.diagnostics).toEqual([]);
  });

  it('keeps the facts of what parsed in a malformed file and names the broken line', async () => {
    const source = readFileSync(join(FIXTURES, 'malformed.go'), 'utf8');
    const facts = await factsOf(source);
    expect(facts.diagnostics[0]).toEqual({ line: 7, column: 13, message: 'missing ")"' });
    expect(facts.functions.map((f) => f.name)).toContain('intact');
    expect(facts.imports.map((i) => i.specifier)).toEqual(['fmt']);
    const { code, comment, blank } = facts.lines;
    expect(code + comment + blank).toBe(source.trimEnd().split('\n').length);
  });
});

/** The only Go sources a machine without Go tends to have: git's contrib examples. */
const GO_SOURCES = '/usr/share/doc/git/contrib/persistent-https';

describe('real code', () => {
  const itWithSources = existsSync(GO_SOURCES) ? it : it.skip;
  itWithSources('reads real Go files without throwing and with consistent counts', async () => {
    const files = readdirSync(GO_SOURCES).filter((name) => name.endsWith('.go'));
    const problems: string[] = [];
    let functions = 0;
    for (const name of files) {
      const source = readFileSync(join(GO_SOURCES, name), 'utf8');
      const facts = await factsOf(source);
      const physicalLines = source === '' ? 0 : source.replace(/\n$/, '').split('\n').length;
      const { code, comment, blank } = facts.lines;
      if (code + comment + blank !== physicalLines) problems.push(`${name}: line counts`);
      if (facts.diagnostics.length > 0) problems.push(`${name}: ${facts.diagnostics.join('; ')}`);
      functions += facts.functions.length;
    }
    expect(problems).toEqual([]);
    expect(functions).toBeGreaterThan(files.length);
  });
});
