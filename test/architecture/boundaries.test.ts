import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../support/temp-dir.js';

const CRUISER = resolve('node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Runs the project's dependency rules over a throw-away source tree. */
async function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const temp = await makeTempDir('boundaries');
  try {
    await copyFile(resolve('.dependency-cruiser.cjs'), join(temp.path, '.dependency-cruiser.cjs'));
    await writeFile(
      join(temp.path, 'tsconfig.json'),
      '{"compilerOptions":{"module":"NodeNext","moduleResolution":"NodeNext"}}',
    );
    await writeFile(join(temp.path, 'package.json'), '{"type":"module"}');
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(temp.path, path)), { recursive: true });
      await writeFile(join(temp.path, path), text);
    }
    return await new Promise((done) => {
      execFile(
        process.execPath,
        [CRUISER, 'src', '--config', '.dependency-cruiser.cjs', '--no-progress'],
        { cwd: temp.path },
        (error, stdout, stderr) => {
          done({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr });
        },
      );
    });
  } finally {
    await temp.remove();
  }
}

describe('the architecture rules', () => {
  let violations: { code: number; output: string };
  beforeAll(async () => {
    violations = await cruise({
      'src/policy/reads-files.ts':
        "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'src/critic/spawns.ts': "import { spawn } from 'child_process';\nexport const run = spawn;\n",
      'src/gate/knows-store.ts':
        "import { store } from '../memory/store.js';\nexport const s = store;\n",
      'src/memory/store.ts': 'export const store = 1;\n',
      'src/cli/calls-bot.ts': "import { bot } from '../bot/app.js';\nexport const b = bot;\n",
      'src/bot/app.ts': 'export const bot = 1;\n',
      'src/hooks/calls-action.ts':
        "import { act } from '../action/main.js';\nexport const h = act;\n",
      'src/action/main.ts': 'export const act = 1;\n',
      'src/action/calls-loop.ts':
        "import { loop } from '../agent/run-loop.js';\nexport const l = loop;\n",
      'src/agent/run-loop.ts': 'export const loop = 1;\n',
      'src/learn/reads-ledger.ts':
        "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'src/learn/knows-cli.ts': "import { c } from '../cli/c.js';\nexport const k = c;\n",
      'src/cli/c.ts': 'export const c = 1;\n',
      'src/pricing/knows-learn.ts':
        "import { k } from '../learn/knows-cli.js';\nexport const p = k;\n",
      'src/scan/knows-check.ts':
        "import { judge } from '../check/judge.js';\nexport const s = judge;\n",
      'src/check/judge.ts': 'export const judge = 1;\n',
      'src/check/knows-hook.ts':
        "import { hook } from '../hooks/pre-commit.js';\nexport const k = hook;\n",
      'src/hooks/pre-commit.ts': 'export const hook = 1;\n',
      'src/hooks/knows-cli.ts': "import { help } from '../cli/help.js';\nexport const h = help;\n",
      'src/cli/help.ts': 'export const help = 1;\n',
      'src/memory/knows-scan.ts':
        "import { read } from '../scan/read.js';\nexport const m = read;\n",
      'src/scan/read.ts': 'export const read = 1;\n',
      'src/report/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/report/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
  });

  it('fail when the core touches the file system or processes', () => {
    expect(violations.code).not.toBe(0);
    expect(violations.output).toMatch(/core-without-io: src\/policy\/reads-files\.ts → (node:)?fs/);
    expect(violations.output).toMatch(
      /core-without-io: src\/critic\/spawns\.ts → (node:)?child_process/,
    );
  });

  it('fail when the core reaches for an adapter, or an entry point for another', () => {
    expect(violations.output).toContain(
      'core-not-to-edges: src/gate/knows-store.ts → src/memory/store.ts',
    );
    expect(violations.output).toContain(
      'hooks-run-through-the-cli: src/hooks/calls-action.ts → src/action/main.ts',
    );
    expect(violations.output).toContain(
      'cli-starts-the-other-entry-points: src/cli/calls-bot.ts → src/bot/app.ts',
    );
    expect(violations.output).toContain(
      'action-starts-the-builder-only: src/action/calls-loop.ts → src/agent/run-loop.ts',
    );
  });

  it('keep learning pure and below the entry points, and the core free of it', () => {
    expect(violations.output).toMatch(
      /learn-without-io: src\/learn\/reads-ledger\.ts → (node:)?fs/,
    );
    expect(violations.output).toContain(
      'learn-below-entry-points: src/learn/knows-cli.ts → src/cli/c.ts',
    );
    expect(violations.output).toContain(
      'core-not-to-edges: src/pricing/knows-learn.ts → src/learn/knows-cli.ts',
    );
  });

  it('fail when a use case reaches up, or an adapter reaches for a use case', () => {
    expect(violations.output).toContain(
      'scan-is-the-bottom-use-case: src/scan/knows-check.ts → src/check/judge.ts',
    );
    expect(violations.output).toContain(
      'use-cases-not-to-entry-points: src/check/knows-hook.ts → src/hooks/pre-commit.ts',
    );
    expect(violations.output).toContain(
      'hooks-run-through-the-cli: src/hooks/knows-cli.ts → src/cli/help.ts',
    );
    expect(violations.output).toContain(
      'adapters-not-to-entry-points: src/memory/knows-scan.ts → src/scan/read.ts',
    );
  });

  it('fail on cycles', () => {
    expect(violations.output).toContain('no-circular');
  });

  it('pass when adapters do the I/O and the core stays pure', async () => {
    const clean = await cruise({
      'src/policy/pure.ts': 'export const double = (n: number) => n * 2;\n',
      'src/memory/reads.ts':
        "import { readFileSync } from 'node:fs';\nimport { double } from '../policy/pure.js';\nexport const r = () => double(readFileSync('x').length);\n",
      'src/cli/main.ts':
        "import { r } from '../memory/reads.js';\nimport { serveApp } from '../bot/serve-app.js';\nexport const main = [r, serveApp];\n",
      'src/bot/serve-app.ts': 'export const serveApp = 1;\n',
      'src/action/implement-mode.ts':
        "import { implement } from '../agent/implement-run.js';\nexport const i = implement;\n",
      'src/agent/implement-run.ts': 'export const implement = 1;\n',
      'src/learn/propose.ts':
        "import { double } from '../policy/pure.js';\nimport type { R } from '../memory/types.js';\nexport const propose = (r: R) => double(r);\n",
      'src/memory/types.ts': 'export type R = number;\n',
      'src/cli/learn.ts':
        "import { propose } from '../learn/propose.js';\nexport const l = propose;\n",
      'src/check/check-change.ts':
        "import { r as read } from '../memory/reads.js';\nexport const check = read;\n",
      'src/hooks/pre-commit.ts':
        "import { check } from '../check/check-change.js';\nimport { context } from '../cli/commands/command-context.js';\nexport const hook = [check, context];\n",
      'src/cli/commands/command-context.ts': 'export const context = 1;\n',
    });
    expect(clean.output).toContain('no dependency violations found');
    expect(clean.code).toBe(0);
  });
});
