import { describe, expect, it } from '@jest/globals';
import { buildModuleGraph } from '../../src/analysis/graph/module-graph.js';
import { extractGoFacts } from '../../src/analysis/tree-sitter/go-facts.js';
import type { FileFacts } from '../../src/model/facts.js';
import { goResolver } from '../../src/scan/go-import-resolution.js';
import { createTreeSitterParsers } from '../../src/scan/tree-sitter-parsers.js';

const parsers = createTreeSitterParsers();

/** 20 files of package `user` importing package `big`, which has 30 files: 600 edges. */
async function usersOfABigPackage(): Promise<Map<string, FileFacts>> {
  const files = new Map<string, string>();
  for (let index = 0; index < 30; index += 1)
    files.set(`big/b${index}.go`, `package big\n\nfunc B${index}() int { return ${index} }\n`);
  for (let index = 0; index < 20; index += 1)
    files.set(
      `user/u${index}.go`,
      `package user\n\nimport "example.com/m/big"\n\nfunc U${index}() int { return big.B0() }\n`,
    );
  const facts = new Map<string, FileFacts>();
  for (const [path, text] of files) {
    const tree = await parsers.parse('go', text);
    try {
      facts.set(path, extractGoFacts(tree, text));
    } finally {
      tree.delete();
    }
  }
  return facts;
}

describe('goResolver', () => {
  it('keeps the edges of package imports up to the limit, and none past it, naming the limit', async () => {
    const facts = await usersOfABigPackage();
    const configs = {
      paths: [...facts.keys(), 'go.mod'],
      texts: new Map([['go.mod', 'module example.com/m\n']]),
      unreadable: [],
    };
    const imports = new Map([...facts].map(([path, fileFacts]) => [path, fileFacts.imports]));
    const within = goResolver(configs, facts, 600);
    expect(within.unreadable).toEqual([]);
    expect(buildModuleGraph(imports, within.resolve).edges).toHaveLength(600);

    const past = goResolver(configs, facts, 599);
    expect(buildModuleGraph(imports, past.resolve).edges).toHaveLength(0);
    expect(past.unreadable).toEqual([
      {
        path: expect.stringMatching(/^user\//),
        problem: expect.stringContaining('past 599 edges'),
      },
    ]);
  });
});
