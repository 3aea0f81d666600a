import { describe, expect, it } from '@jest/globals';
import { prematureAbstraction } from '../../../src/critic/rules/premature-abstraction.js';
import { singleBackendRepository } from '../../../src/critic/rules/single-backend-repository.js';
import { contextOf } from '../critic-support.js';

const REPOSITORY = 'export interface UserRepository {\n  find(id: string): string;\n}\n';
const backend = (name: string) =>
  `import type { UserRepository } from './user-repository.js';\nexport class ${name} implements UserRepository {\n  find(id: string) { return id; }\n}\n`;

describe('single_backend_repository', () => {
  it('reports a repository interface with one backend, alongside premature_abstraction', async () => {
    const context = await contextOf(
      {
        'src/user-repository.ts': REPOSITORY,
        'src/pg-user-repository.ts': backend('PgUserRepository'),
      },
      'forbidden_patterns:\n  premature_abstraction:\n    core_interfaces: [UserRepository]\n',
    );
    expect(singleBackendRepository.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'single_backend_repository',
        message:
          'interface UserRepository has 1 concrete implementation (PgUserRepository): a repository pattern over a single backend, where 2 backends would justify it',
        location: { path: 'src/user-repository.ts', startLine: 1, endLine: 3 },
        symbol: 'UserRepository',
        measured: 1,
        limit: 2,
      }),
    ]);
    // The exemption is premature_abstraction's: this rule still says why the interface is there.
    expect(prematureAbstraction.check(context)).toEqual([]);
  });

  it('reports an abstract *Repo with no backend at all', async () => {
    const context = await contextOf({
      'src/order-repo.py': 'from abc import ABC\n\nclass OrderRepo(ABC):\n    pass\n',
    });
    expect(singleBackendRepository.check(context).map((finding) => finding.message)).toEqual([
      'abstract class OrderRepo has no concrete implementation: a repository pattern over a single backend, where 2 backends would justify it',
    ]);
  });

  it('passes two backends, a concrete class named *Repository, and an interface no class names', async () => {
    const context = await contextOf({
      'src/user-repository.ts': REPOSITORY,
      'src/pg-user-repository.ts': backend('PgUserRepository'),
      'src/memory-user-repository.ts': backend('MemoryUserRepository'),
      'src/order-repository.ts':
        'export class OrderRepository {\n  all(): string[] { return []; }\n}\n',
      'src/item-repository.ts':
        'export interface ItemRepository {\n  all(): string[];\n}\nexport const items: ItemRepository = { all: () => [] };\n',
    });
    expect(singleBackendRepository.check(context)).toEqual([]);
  });
});
