import { afterEach, describe, expect, it } from '@jest/globals';
import type { Policy } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

const COUNT_ALL = parsed(
  'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true\n',
);

function parsed(yaml: string): Policy {
  const result = parsePolicy(`version: 1\n${yaml}`, '.aureus/policy.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.policy;
}

/** `store.ts` uses `Service` as a value; `service.ts` names `Store` only in types. */
const TYPE_USE = {
  'src/store.ts':
    "import { Service } from './service.js';\nexport class Store {\n  readonly owner = new Service();\n}\n",
  'src/service.ts':
    "import { Store } from './store.js';\nexport class Service {\n  store?: Store;\n}\n",
};

/** The same, but `Store` is injected through a decorated class's constructor. */
const INJECTED = {
  'src/store.ts': TYPE_USE['src/store.ts'],
  'src/service.ts':
    "import { injectable } from 'inversify';\nimport { Store } from './store.js';\n@injectable()\nexport class Service {\n  constructor(private readonly store: Store) {}\n}\n",
};

describe('runtime import cycles are the imports TypeScript’s emit keeps', () => {
  let repo: (Repo & { remove(): Promise<void> }) | undefined;
  useIsolatedGit();
  afterEach(() => repo?.remove());

  const repoOf = async (name: string, files: Record<string, string>) => {
    repo = await makeRepo(name);
    for (const [path, text] of Object.entries(files)) repo.write(path, text);
    repo.commit('fixture');
    return repo.dir;
  };

  it('does not count an import whose bindings are used only as types, unless told to', async () => {
    const dir = await repoOf('emitted-type-use', TYPE_USE);
    expect((await analyzeRepository(dir, defaultPolicy())).cycles).toEqual([]);
    expect((await analyzeRepository(dir, COUNT_ALL)).cycles).toEqual([
      ['src/service.ts', 'src/store.ts'],
    ]);
  });

  it('counts it where the tsconfig keeps every import (verbatimModuleSyntax)', async () => {
    const dir = await repoOf('emitted-verbatim', {
      ...TYPE_USE,
      'tsconfig.json': '{ "compilerOptions": { "verbatimModuleSyntax": true } }\n',
    });
    expect((await analyzeRepository(dir, defaultPolicy())).cycles).toEqual([
      ['src/service.ts', 'src/store.ts'],
    ]);
  });

  it('counts a constructor parameter’s type where decorator metadata is emitted', async () => {
    const dir = await repoOf('emitted-metadata', {
      ...INJECTED,
      'src/tsconfig.json':
        '{ "compilerOptions": { "experimentalDecorators": true, "emitDecoratorMetadata": true } }\n',
    });
    expect((await analyzeRepository(dir, defaultPolicy())).cycles).toEqual([
      ['src/service.ts', 'src/store.ts'],
    ]);
  });

  it('does not count it without emitDecoratorMetadata', async () => {
    const dir = await repoOf('emitted-no-metadata', {
      ...INJECTED,
      'tsconfig.json': '{ "compilerOptions": { "experimentalDecorators": true } }\n',
    });
    expect((await analyzeRepository(dir, defaultPolicy())).cycles).toEqual([]);
  });
});
