import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { findCycles } from '../../../src/analysis/graph/find-cycles.js';
import { buildModuleGraph } from '../../../src/analysis/graph/module-graph.js';
import { createResolver } from '../../../src/analysis/resolve/create-resolver.js';
import { createTypeScriptHost } from '../../../src/memory/typescript-host.js';
import type { ImportFact } from '../../../src/model/facts.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { WORKSPACE, writeTree } from './fixture-trees.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Import specifiers by TypeScript's pre-processor: enough for these tests, which are about
 * resolution (it cannot tell type-only imports and misses `export * as ns from`).
 */
async function importsOf(root: string, files: readonly string[]) {
  const facts = new Map<string, ImportFact[]>();
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    const imported = ts.preProcessFile(text, true, true).importedFiles;
    facts.set(
      file,
      imported.map(({ fileName }) => ({
        specifier: fileName,
        typeOnly: false,
        reexport: false,
        dynamic: false,
        keptWhen: ['always'],
        bindings: [],
        line: 1,
      })),
    );
  }
  return facts;
}

describe('resolution on real trees', () => {
  it("resolves every import of AUREUS's own sources, and finds no cycle in them", async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const files = ts.sys
      .readDirectory(join(root, 'src'), ['.ts'], undefined, undefined)
      .map((path) => relative(root, path).replaceAll('\\', '/'));
    expect(files.length).toBeGreaterThan(20);
    const imports = await importsOf(root, files);
    const { resolve } = createResolver({ rootDir: root, ...createTypeScriptHost(root) });
    const unresolved = [...imports].flatMap(([file, facts]) =>
      facts
        .filter((fact) => resolve(file, fact.specifier).kind === 'unresolved')
        .map((fact) => `${file}: ${fact.specifier}`),
    );
    expect(unresolved).toEqual([]);
    expect(resolve('src/memory/typescript-host.ts', 'typescript')).toEqual({
      kind: 'external',
      packageName: 'typescript',
    });
    const graph = buildModuleGraph(imports, resolve);
    expect(graph.edges.length).toBeGreaterThan(files.length);
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([]);
  });

  it('finds a cycle that runs through a workspace package link', async () => {
    const temp = await makeTempDir('workspace-cycle');
    cleanups.push(temp.remove);
    await writeTree(temp.path, {
      ...WORKSPACE,
      'packages/app/src/main.ts':
        "import { Button } from '@demo/ui/button';\nexport const app = 1;\n",
      'packages/ui/src/button.ts':
        "import { app } from '../../app/src/main';\nexport const Button = app;\n",
    });
    const files = [
      'packages/app/src/main.ts',
      'packages/ui/src/button.ts',
      'packages/ui/src/index.ts',
    ];
    const { resolve } = createResolver({ rootDir: temp.path, ...createTypeScriptHost(temp.path) });
    const graph = buildModuleGraph(await importsOf(temp.path, files), resolve);
    expect(findCycles(graph, { includeTypeOnly: false })).toEqual([
      ['packages/app/src/main.ts', 'packages/ui/src/button.ts'],
    ]);
  });
});
