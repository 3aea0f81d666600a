import { describe, expect, it } from '@jest/globals';
import type { FileFacts, Language } from '../../src/model/facts.js';
import { findingsInOtherLanguages } from '../../src/reflexion/findings-in-other-languages.js';
import { createFactParser } from '../../src/scan/fact-parsers.js';

const lines = (...source: string[]): string => `${source.join('\n')}\n`;

/** Facts as `aureus check` gets them, from the real extractors. */
async function factsOf(files: Record<string, [Language, string]>): Promise<Map<string, FileFacts>> {
  const parse = await createFactParser('typescript', 0);
  const facts = new Map<string, FileFacts>();
  for (const [path, [language, text]] of Object.entries(files))
    facts.set(path, await parse(language, text));
  return facts;
}

describe('findingsInOtherLanguages', () => {
  it('finds a private one-statement Python function called once, and a static-only class', async () => {
    const facts = await factsOf({
      'app/util.py': [
        'python',
        lines(
          'def _double(x):',
          '    return x * 2',
          '',
          'def run(y):',
          '    return _double(y) + 1',
          '',
          'class Paths:',
          '    @staticmethod',
          '    def home():',
          '        return "/home"',
        ),
      ],
    });
    expect(findingsInOtherLanguages(facts, new Set(['app/util.py']))).toEqual([
      {
        pass: 'inline-trivial-function',
        title: 'Inline `_double`, a one-statement function called once',
        path: 'app/util.py',
        line: 1,
      },
      {
        pass: 'static-only-class',
        title: 'Turn static-only class `Paths` into module functions',
        path: 'app/util.py',
        line: 7,
      },
    ]);
  });

  it('leaves alone public, recursive, branching, longer and twice-called functions, and what is out of scope', async () => {
    const facts = await factsOf({
      'app/a.py': [
        'python',
        lines(
          'def public(x):',
          '    return x',
          'def _twice(x):',
          '    return x',
          'def _branchy(x):',
          '    return 1 if x else 2',
          'def _longer(x):',
          '    y = x',
          '    return y',
          'def _recursive(x):',
          '    return _recursive(x)',
          'def user(v):',
          '    return public(v) + _twice(v) + _branchy(v) + _longer(v)',
          'def other(v):',
          '    return _twice(v)',
        ),
      ],
      'app/b.py': [
        'python',
        lines('def _alone(x):', '    return x', 'def c():', '    return _alone(1)'),
      ],
    });
    expect(findingsInOtherLanguages(facts, new Set(['app/a.py']))).toEqual([]);
  });

  it('finds a lower-case Go function called once, counting calls in every Go file', async () => {
    const facts = await factsOf({
      'cmd/a.go': [
        'go',
        lines(
          'package main',
          '',
          'func half(x int) int {',
          '\treturn x / 2',
          '}',
          '',
          'func Exported(x int) int {',
          '\treturn x',
          '}',
          '',
          'func shared(x int) int {',
          '\treturn x',
          '}',
          '',
          'func main() {',
          '\tprintln(half(4), Exported(1), shared(2))',
          '}',
        ),
      ],
      'cmd/b.go': ['go', lines('package main', '', 'func use() int {', '\treturn shared(3)', '}')],
    });
    expect(findingsInOtherLanguages(facts, new Set(['cmd/a.go', 'cmd/b.go']))).toEqual([
      {
        pass: 'inline-trivial-function',
        title: 'Inline `half`, a one-statement function called once',
        path: 'cmd/a.go',
        line: 3,
      },
    ]);
  });

  it('reports nothing for TypeScript and Java, whose own passes or idioms decide', async () => {
    const facts = await factsOf({
      'src/a.ts': ['typescript', lines('function f() { return 1; }', 'export const a = f();')],
      'src/Util.java': ['java', lines('class Util {', '  static int one() { return 1; }', '}')],
    });
    expect(findingsInOtherLanguages(facts, new Set(['src/a.ts', 'src/Util.java']))).toEqual([]);
  });
});
