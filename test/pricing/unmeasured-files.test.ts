import { describe, expect, it } from '@jest/globals';
import { policyFrom, priceOf } from './pricing-support.js';

const OVER = { kind: 'too-large', size: 2 * 1024 * 1024 } as const;
const POLICY = policyFrom('paths:\n  ignore: [vendor/**]\n  generated: [gen/**]\n');

/** The files a change of these heads over the read limit leaves unmeasured, by path. */
async function unmeasuredOf(paths: readonly string[]): Promise<string[]> {
  const priced = await priceOf(
    paths.map((path) => ({ path, head: OVER })),
    { policy: POLICY },
  );
  return priced.unmeasured.map((note) => note.slice(0, note.indexOf(':')));
}

describe('unmeasured files', () => {
  it('are source files, manifests and lockfiles AUREUS reads whose head is over the read limit', async () => {
    expect(
      await unmeasuredOf([
        'src/engine.ts',
        'test/huge.test.py',
        'package.json',
        'services/api/requirements.txt',
        'package-lock.json',
        'web/npm-shrinkwrap.json',
        'app/pnpm-lock.yaml',
        'site/yarn.lock',
        'tools/bun.lock',
        'rust/Cargo.lock',
        'go.sum',
        'gen/api.ts',
      ]),
    ).toEqual([
      'app/pnpm-lock.yaml',
      'gen/api.ts',
      'go.sum',
      'package-lock.json',
      'package.json',
      'rust/Cargo.lock',
      'services/api/requirements.txt',
      'site/yarn.lock',
      'src/engine.ts',
      'test/huge.test.py',
      'tools/bun.lock',
      'web/npm-shrinkwrap.json',
    ]);
  });

  it('leave out images, data, other lockfiles, generated code AUREUS does not parse, and ignored code', async () => {
    expect(
      await unmeasuredOf([
        'assets/hero.png',
        'data/dump.csv',
        'composer.lock',
        'gen/api.rs',
        'vendor/bundle.js',
      ]),
    ).toEqual([]);
  });

  it('say what is unknown and how to resolve it', async () => {
    const priced = await priceOf([{ path: 'src/engine.ts', head: OVER }]);
    expect(priced.unmeasured).toEqual([
      'src/engine.ts: TypeScript over the read limit, so its lines, abstractions, sensitive calls and findings are unknown. To resolve, split it into smaller files; if it is generated, add it to paths.generated (priced by its size, at pricing.generated_code_weight) or paths.ignore in the base policy.',
    ]);
  });

  it('count the head only: a base over the limit is priced as absent, which costs more', async () => {
    const priced = await priceOf([
      { path: 'src/engine.ts', base: OVER, head: 'export const small = 1;\n' },
      { path: 'src/old.ts', base: OVER },
    ]);
    expect(priced.unmeasured).toEqual([]);
  });
});
