import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { extractPythonFacts } from '../../src/analysis/tree-sitter/python-facts.js';
import type { FileFacts } from '../../src/model/facts.js';
import { createTreeSitterParsers } from '../../src/scan/tree-sitter-parsers.js';

const parsers = createTreeSitterParsers();
const FIXTURES = fileURLToPath(new URL('../fixtures/analysis/python', import.meta.url));

async function factsOf(source: string): Promise<FileFacts> {
  const tree = await parsers.parse('python', source);
  try {
    return extractPythonFacts(tree, source);
  } finally {
    tree.delete();
  }
}

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

describe('lines', () => {
  it('counts comments and docstrings as comment lines, other strings as code', async () => {
    const facts = await factsOf(
      lines(
        '"""Module docstring',
        '',
        'spanning lines."""',
        '# a comment',
        '',
        'TEXT = """a value',
        '',
        'not documentation"""',
        'x = 1  # trailing comment',
      ),
    );
    expect(facts.lines).toEqual({ code: 4, comment: 4, blank: 1 });
  });
});

describe('classes and abstractions', () => {
  it('reads extends and implements from the bases, markers and generic arguments dropped', async () => {
    const facts = await factsOf(
      lines('class A(Generic[T], models.Base[T], Mixin, object, metaclass=Meta):', '    pass'),
    );
    expect(facts.classes[0]).toMatchObject({
      name: 'A',
      extends: 'models.Base',
      implements: ['Mixin'],
    });
  });

  it('knows abstract classes by ABC, ABCMeta or an abstract method, and protocols by Protocol', async () => {
    const facts = await factsOf(
      lines(
        'class ByBase(abc.ABC): pass',
        'class ByMeta(metaclass=abc.ABCMeta): pass',
        'class ByMethod:',
        '    @abc.abstractmethod',
        '    def run(self): ...',
        'class Shape(typing.Protocol[T]):',
        '    def area(self) -> float: ...',
        'class Plain(Base): pass',
      ),
    );
    expect(facts.classes.map((c) => [c.name, c.abstract, c.extends])).toEqual([
      ['ByBase', true, null],
      ['ByMeta', true, null],
      ['ByMethod', true, null],
      ['Shape', false, null],
      ['Plain', false, 'Base'],
    ]);
    expect(facts.abstractions).toEqual([
      { name: 'ByBase', kind: 'abstract-class', span: { start: 1, end: 1 }, dataOnly: false },
      { name: 'ByMeta', kind: 'abstract-class', span: { start: 2, end: 2 }, dataOnly: false },
      { name: 'ByMethod', kind: 'abstract-class', span: { start: 3, end: 5 }, dataOnly: false },
      { name: 'Shape', kind: 'protocol', span: { start: 6, end: 7 }, dataOnly: false },
    ]);
  });

  it('is static-only with members that are all static methods, class methods or class attributes', async () => {
    const facts = await factsOf(
      lines(
        'class Empty:',
        '    """Only a docstring."""',
        'class Helpers:',
        '    RATE = 2',
        '    limit: ClassVar[int] = 3',
        '    @staticmethod',
        '    def double(x): return x * 2',
        '    @classmethod',
        '    def make(cls): return cls()',
        'class Record:',
        '    name: str',
        'class Service:',
        '    @staticmethod',
        '    def build(): ...',
        '    def run(self): ...',
      ),
    );
    expect(facts.classes.map((c) => [c.name, c.staticOnly, c.methods])).toEqual([
      ['Empty', false, 0],
      ['Helpers', true, 2],
      ['Record', false, 0],
      ['Service', false, 2],
    ]);
  });

  it('spans a decorated class from its first decorator and counts its code lines', async () => {
    const facts = await factsOf(
      lines('@dataclass', 'class Point:', '    # x first', '    x: int', '', '    y: int'),
    );
    expect(facts.classes[0]).toMatchObject({ span: { start: 1, end: 6 }, loc: 4 });
  });
});

describe('functions', () => {
  it('names methods Class.method and tells constructors, accessors, methods and functions apart', async () => {
    const facts = await factsOf(
      lines(
        'class Account:',
        '    def __init__(self, owner): self.owner = owner',
        '    @property',
        '    def balance(self): return 0',
        '    @balance.setter',
        '    def balance(self, value): pass',
        '    def close(self): pass',
        '    handler = lambda self: None',
        'def helper():',
        '    def inner(): pass',
        '    self.callback = lambda: 0',
        '    sorted(items, key=lambda item: item.name)',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.kind])).toEqual([
      ['Account.__init__', 'constructor'],
      ['Account.balance', 'accessor'],
      ['Account.balance', 'accessor'],
      ['Account.close', 'method'],
      ['Account.handler', 'arrow'],
      ['helper', 'function'],
      ['inner', 'function'],
      ['callback', 'arrow'],
      ['(anonymous)', 'arrow'],
    ]);
  });

  it('counts parameters without the receiver and without the / and * separators', async () => {
    const facts = await factsOf(
      lines(
        'def free(a, b=1, /, *args, c, d: int = 2, **kwargs): pass',
        'def keyword_only(*, a, b): pass',
        'class C:',
        '    def method(self, a): pass',
        '    @classmethod',
        '    def factory(cls, a, b): pass',
        '    @staticmethod',
        '    def tool(a, b): pass',
        'handler = lambda event, *rest: None',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.parameters])).toEqual([
      ['free', 6],
      ['keyword_only', 2],
      ['C.method', 1],
      ['C.factory', 2],
      ['C.tool', 2],
      ['handler', 2],
    ]);
  });

  it('counts every kind of decision point, nested functions excluded', async () => {
    const facts = await factsOf(
      lines(
        'def decide(x, items):',
        '    if x and items:',
        '        pass',
        '    elif x or not items:',
        '        pass',
        '    for item in items:',
        '        while item:',
        '            item = item.next if item else None',
        '    try:',
        '        pass',
        '    except ValueError:',
        '        pass',
        '    except* TypeError:',
        '        pass',
        '    found = [i for i in items if i if i > 0]',
        '    match x:',
        '        case 1 | 2: pass',
        '        case [a, b]: pass',
        '        case _ if x: pass',
        '        case _: pass',
        '    def nested():',
        '        if x: pass',
      ),
    );
    // 1 + if, and, elif, or, for, while, ?:, except ×2, comprehension if ×2, 3 cases (not `_`)
    expect(facts.functions.map((f) => [f.name, f.complexity])).toEqual([
      ['decide', 15],
      ['nested', 2],
    ]);
  });

  it('lists callees in source order, decorators in the enclosing scope and computed callees skipped', async () => {
    const facts = await factsOf(
      lines(
        'def outer():',
        '    @app.route("/")',
        '    def view(value=default()):',
        '        return render(a.b.c(value))',
        '    handlers[0]()',
        '    make()()',
        '    log.info("done")',
      ),
    );
    expect(facts.functions.map((f) => [f.name, f.calls])).toEqual([
      ['outer', ['route', 'make', 'info']],
      ['view', ['default', 'render', 'c']],
    ]);
  });

  it('lists the callees that are chains of names, module level included', async () => {
    const facts = await factsOf(
      lines(
        'PATTERN = re.compile("x")',
        'def run(s):',
        '    urllib.request.urlopen(s.replace("a", "b"))',
        '    handlers[0]()',
        '    make()()',
        '    Path(s).write_text("x")',
      ),
    );
    expect(facts.qualifiedCalls).toEqual([
      'Path',
      'make',
      're.compile',
      's.replace',
      'urllib.request.urlopen',
    ]);
  });
});

describe('imports and exports', () => {
  it('reads every import form; TYPE_CHECKING imports are type-only, __future__ is skipped', async () => {
    const facts = await factsOf(
      lines(
        'from __future__ import annotations',
        'import os.path, json as j',
        'from . import sibling',
        'from ..pkg.mod import (a,',
        '    b)',
        'if typing.TYPE_CHECKING:',
        '    from collections.abc import Sequence',
        'else:',
        '    import runtime_only',
      ),
    );
    expect(facts.imports.map((i) => [i.specifier, i.typeOnly, i.line])).toEqual([
      ['os.path', false, 2],
      ['json', false, 2],
      ['.', false, 3],
      ['..pkg.mod', false, 4],
      ['collections.abc', true, 7],
      ['runtime_only', false, 9],
    ]);
    expect(facts.imports.every((i) => !i.reexport && !i.dynamic)).toBe(true);
  });

  it('marks the imports inside a function deferred: they run when it is called', async () => {
    const facts = await factsOf(
      lines(
        'import json',
        'class Codec:',
        '    import zlib',
        '    def decode(self):',
        '        from . import registry',
        "        return importlib.import_module('codecs')",
      ),
    );
    expect(facts.imports.map((i) => [i.specifier, i.deferred === true])).toEqual([
      ['json', false],
      ['zlib', false],
      ['.', true],
      ['codecs', true],
    ]);
  });

  it('lists the names each import binds', async () => {
    const facts = await factsOf(
      lines(
        'import os.path, json as j',
        'from .shapes import Shape as S, Circle',
        'from pkg import *',
        "mod = importlib.import_module('plugins')",
      ),
    );
    const bind = (imported: string, local: string) => ({ imported, local });
    expect(facts.imports.map((i) => [i.specifier, i.bindings])).toEqual([
      ['os.path', [bind('*', 'os')]],
      ['json', [bind('*', 'j')]],
      ['.shapes', [bind('Shape', 'S'), bind('Circle', 'Circle')]],
      ['pkg', [bind('*', '*')]],
      ['plugins', []],
    ]);
  });

  it('treats import_module and __import__ with a literal as dynamic imports', async () => {
    const facts = await factsOf(
      lines(
        'import importlib',
        "codec = importlib.import_module('codecs.utf8')",
        'plugin = import_module(name)',
        "legacy = __import__('legacy_mod')",
        'other = __import__(name)',
      ),
    );
    expect(facts.imports.filter((i) => i.dynamic).map((i) => [i.specifier, i.line])).toEqual([
      ['codecs.utf8', 2],
      ['legacy_mod', 4],
    ]);
    expect(facts.reflection).toEqual([
      { kind: 'dynamic-import', line: 3 },
      { kind: 'dunder-import', line: 4 },
      { kind: 'dunder-import', line: 5 },
    ]);
  });

  it('exports the names of __all__ when the module defines it', async () => {
    const facts = await factsOf(
      lines(
        "__all__ = ['load', 'dump']",
        "__all__ += ('Reader',)",
        "__all__.extend(['Writer'])",
        "__all__.append('VERSION')",
        'def load(): pass',
        'def hidden(): pass',
      ),
    );
    expect(facts.exports.map((e) => [e.name, e.line])).toEqual([
      ['load', 1],
      ['dump', 1],
      ['Reader', 2],
      ['Writer', 3],
      ['VERSION', 4],
    ]);
  });

  it('exports public module-level definitions without __all__; type aliases are type-only', async () => {
    const facts = await factsOf(
      lines(
        'import os',
        'from x import y',
        'def run(): pass',
        'def _private(): pass',
        'class Model: pass',
        'LIMIT = 10',
        'type Pair = tuple[int, int]',
        'Vector: TypeAlias = list[float]',
        'if sys.platform == "win32":',
        '    def native(): pass',
        'def run(): pass',
        'class Outer:',
        '    member = 1',
      ),
    );
    expect(facts.exports.map((e) => [e.name, e.typeOnly, e.line])).toEqual([
      ['run', false, 3],
      ['Model', false, 5],
      ['LIMIT', false, 6],
      ['Pair', true, 7],
      ['Vector', true, 8],
      ['native', false, 10],
      ['Outer', false, 12],
    ]);
  });
});

describe('mutable state', () => {
  it('keeps module-level mutable values that a function or method mutates', async () => {
    const facts = await factsOf(
      lines(
        '_cache = {}',
        'registry, seen = [], set()',
        'HANDLERS = defaultdict(list)',
        'settings = Settings()',
        'totals = dict()',
        'def remember(key, value):',
        '    _cache[key] = value',
        '    registry.append(key)',
        '    HANDLERS[key].append(value)',
        '    seen.add(key)',
        'class Store:',
        '    def save(self, key):',
        '        settings.debug = True',
        '        del totals[key]',
      ),
    );
    expect(facts.mutableState).toEqual([
      { name: '_cache', line: 1 },
      { name: 'registry', line: 2 },
      { name: 'seen', line: 2 },
      { name: 'HANDLERS', line: 3 },
      { name: 'settings', line: 4 },
      { name: 'totals', line: 5 },
    ]);
  });

  it('leaves out aliases, constants, patterns, loggers, type declarations and unmutated values', async () => {
    const facts = await factsOf(
      lines(
        'log = logging.getLogger(__name__)',
        'pattern = re.compile("x")',
        'parse = json.loads',
        'square = lambda x: x * x',
        "T = TypeVar('T')",
        "UserId = NewType('UserId', int)",
        'Alias: TypeAlias = int',
        '__all__ = ["remember"]',
        'MAX_SIZE = 10',
        'counter = 0',
        'counter += 1',
        'defaults = {"a": 1}',
        'defaults["b"] = 2',
        'names, items = [], []',
        'if TYPE_CHECKING:',
        '    checker_only = []',
        'def remember(names):',
        '    names.append(1)',
        '    items = []',
        '    items.append(pattern.match(parse("1")))',
        '    log.setLevel(MAX_SIZE)',
        '    checker_only.append(1)',
      ),
    );
    expect(facts.mutableState).toEqual([]);
  });

  it('adds names that functions declare global, whatever their case', async () => {
    const facts = await factsOf(
      lines('CACHE = None', 'def reset():', '    global CACHE, hits', '    CACHE = {}'),
    );
    expect(facts.mutableState).toEqual([
      { name: 'CACHE', line: 1 },
      { name: 'hits', line: 3 },
    ]);
  });
});

describe('reflection, events and DI containers', () => {
  it('reports eval, exec and attribute access by computed name', async () => {
    const facts = await factsOf(
      lines(
        'eval(expression)',
        'exec(code)',
        "getattr(obj, 'name')",
        'getattr(obj, name)',
        "setattr(obj, f'{prefix}_x', 1)",
        'delattr(obj, name)',
        'obj.eval(x)',
      ),
    );
    expect(facts.reflection).toEqual([
      { kind: 'eval', line: 1 },
      { kind: 'eval', line: 2 },
      { kind: 'getattr', line: 4 },
      { kind: 'getattr', line: 5 },
      { kind: 'getattr', line: 6 },
    ]);
  });

  it('reports event subscriptions with their literal event name', async () => {
    const facts = await factsOf(
      lines(
        "emitter.on('ready', start)",
        "emitter.once('close', stop)",
        'bus.subscribe(topic, handle)',
        "emitter.add_listener('data', lambda d: d)",
        'self.sock.connect(self.address)',
        'on(x)',
      ),
    );
    expect(facts.eventSubscriptions).toEqual([
      { method: 'on', event: 'ready', line: 1 },
      { method: 'once', event: 'close', line: 2 },
      { method: 'subscribe', event: null, line: 3 },
      { method: 'add_listener', event: 'data', line: 4 },
    ]);
  });

  it('counts .connect( as a subscription only in files that import a signal library', async () => {
    const qt = await factsOf(
      lines(
        'from PySide6.QtWidgets import QPushButton',
        'def build(button):',
        '    button.clicked.connect(lambda: None)',
      ),
    );
    const django = await factsOf(
      lines(
        'def ready():',
        '    post_save.connect(on_save)',
        'from django.db.models.signals import post_save',
      ),
    );
    const sockets = await factsOf(lines('import socket', 'sock.connect((host, port))'));
    expect(qt.eventSubscriptions).toEqual([{ method: 'connect', event: null, line: 3 }]);
    expect(django.eventSubscriptions).toEqual([{ method: 'connect', event: null, line: 2 }]);
    expect(sockets.eventSubscriptions).toEqual([]);
  });

  it('reports imports of DI container libraries', async () => {
    const facts = await factsOf(
      lines(
        'from dependency_injector import containers',
        'import punq',
        'from lagom.integrations import fast_api',
        'import injection_helpers',
      ),
    );
    expect(facts.diContainers).toEqual([
      { library: 'dependency_injector', line: 1 },
      { library: 'punq', line: 2 },
      { library: 'lagom', line: 3 },
    ]);
  });
});

describe('whole files', () => {
  it('reads every fact kind of a realistic module', async () => {
    const facts = await factsOf(readFileSync(join(FIXTURES, 'inventory.py'), 'utf8'));
    expect(facts.lines).toEqual({ code: 53, comment: 3, blank: 24 });
    expect(
      facts.classes.map((c) => [
        c.name,
        c.extends,
        c.implements,
        c.abstract,
        c.staticOnly,
        c.methods,
      ]),
    ).toEqual([
      ['Repository', null, [], true, false, 1],
      ['Sized', null, [], false, false, 1],
      ['MemoryRepository', 'Repository', ['Sized'], false, false, 4],
      ['Units', null, [], false, true, 2],
    ]);
    expect(facts.abstractions.map((a) => [a.name, a.kind])).toEqual([
      ['Repository', 'abstract-class'],
      ['Sized', 'protocol'],
    ]);
    const restock = facts.functions.find((f) => f.name === 'restock');
    expect(restock).toEqual({
      name: 'restock',
      kind: 'function',
      span: { start: 67, end: 77 },
      loc: 11,
      complexity: 6,
      parameters: 3,
      calls: ['len', 'len', 'import_module', 'getattr', 'on', 'len'],
    });
    expect(facts.functions.map((f) => f.name)).toContain('on_error');
    expect(facts.imports.filter((i) => i.typeOnly).map((i) => i.specifier)).toEqual(['.models']);
    expect(facts.exports.map((e) => e.name)).toEqual(['Repository', 'MemoryRepository', 'restock']);
    expect(facts.mutableState.map((m) => m.name)).toEqual(['count']);
    expect(facts.reflection.map((r) => r.kind)).toEqual(['dynamic-import', 'getattr']);
    expect(facts.eventSubscriptions).toEqual([{ method: 'on', event: 'restocked', line: 76 }]);
    expect(facts.diContainers).toEqual([{ library: 'injector', line: 9 }]);
    expect(facts.diagnostics).toEqual([]);
  });

  it('keeps the facts of what parsed in a malformed file and names the broken line', async () => {
    const source = readFileSync(join(FIXTURES, 'malformed.py'), 'utf8');
    const facts = await factsOf(source);
    expect(facts.diagnostics.length).toBeGreaterThan(0);
    expect(facts.diagnostics[0]).toEqual({ line: 4, column: 5, message: 'syntax error' });
    expect(facts.functions.map((f) => f.name)).toContain('intact');
    expect(facts.imports.map((i) => i.specifier)).toEqual(['os']);
    const { code, comment, blank } = facts.lines;
    expect(code + comment + blank).toBe(source.trimEnd().split('\n').length);
  });
});

/** The standard library of the Python this machine has, when it has one. */
const STDLIB = ['/usr/lib/python3.11', '/usr/lib/python3'].find((path) =>
  existsSync(join(path, 'os.py')),
);

describe('real code', () => {
  const itWithStdlib = STDLIB === undefined ? it.skip : it;
  itWithStdlib(
    'reads the standard library without throwing and with consistent counts',
    async () => {
      const folder = STDLIB ?? '';
      const files = readdirSync(folder)
        .filter((name) => name.endsWith('.py'))
        .sort()
        .slice(0, 120);
      const problems: string[] = [];
      let functions = 0;
      for (const name of files) {
        const source = readFileSync(join(folder, name), 'utf8');
        const facts = await factsOf(source);
        const physicalLines = source === '' ? 0 : source.replace(/\n$/, '').split('\n').length;
        const { code, comment, blank } = facts.lines;
        if (code + comment + blank !== physicalLines) problems.push(`${name}: line counts`);
        for (const fn of facts.functions) {
          const { start, end } = fn.span;
          const sane = start <= end && end <= physicalLines && fn.loc <= end - start + 1;
          if (!sane || fn.complexity < 1) problems.push(`${name}: ${fn.name}`);
        }
        functions += facts.functions.length;
      }
      expect(problems).toEqual([]);
      expect(functions).toBeGreaterThan(files.length);
    },
  );
});
