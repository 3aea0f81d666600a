// Acceptance of `aureus init` on real code bases of different kinds, installed from the npm
// registry (pinned) into a folder outside the repository, each turned into a git repository.
// Needs the registry, as the peer-tool comparison in scripts/reference does; when the registry
// cannot be reached the tests are skipped and say why, rather than failing on the network.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { isolateGit, repoAt } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

interface Codebase {
  readonly name: string;
  readonly version: string;
  /** The folder of the package that is the code base (create-vite ships apps as templates). */
  readonly folder?: string;
  /**
   * What a clone of its repository would hold, when the tarball also ships build output
   * (zod publishes compiled `v3/`, `v4/` beside its `src/`): as scripts/reference does.
   */
  readonly keep?: readonly string[];
  readonly expected: string;
}

const CODEBASES: readonly Codebase[] = [
  // A TypeScript library that ships its sources: exports, no bin, no framework.
  { name: 'zod', version: '4.6.7', keep: ['src', 'package.json'], expected: 'library' },
  // A command-line tool: a bin and plain Node modules.
  { name: 'nodemon', version: '3.1.10', expected: 'cli' },
  // A REST API server on express, started through a bin.
  { name: 'json-server', version: '0.17.4', expected: 'api-service' },
  // A React web app: create-vite's React + TypeScript template.
  { name: 'create-vite', version: '6.5.0', folder: 'template-react-ts', expected: 'web-app' },
];

/** Shared with re-runs, outside the repository so no tool run inside it sees the code. */
const CACHE = process.env.AUREUS_INIT_CODEBASES_DIR ?? join(tmpdir(), 'aureus-init-codebases');

/** `<cache>/<name>@<version>/package`: the unpacked tarball, fetched once. */
function fetchCodebase({ name, version }: Codebase): string {
  const folder = join(CACHE, `${name}@${version}`);
  const unpacked = join(folder, 'package');
  if (existsSync(unpacked)) return unpacked;
  const staging = join(folder, `staging-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  try {
    // `npm pack` fetches the published tarball alone: no dependencies, no install scripts.
    // One quick retry: an unreachable registry should skip these tests in seconds, not minutes.
    const tarball = execFileSync(
      'npm',
      [
        'pack',
        `${name}@${version}`,
        '--silent',
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=2000',
        '--fetch-retry-maxtimeout=10000',
        '--pack-destination',
        staging,
      ],
      { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
    )
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(staging, tarball ?? ''), '-C', staging], { timeout: 60_000 });
    renameSync(join(staging, 'package'), unpacked);
    return unpacked;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const fetched = (() => {
  try {
    return { ok: true as const, folders: CODEBASES.map(fetchCodebase) };
  } catch (error) {
    return { ok: false as const, why: error instanceof Error ? error.message : String(error) };
  }
})();

if (!fetched.ok) {
  process.stderr.write(
    `init-real-codebases: skipped, the npm registry could not be reached (${fetched.why.split('\n')[0]}).\n`,
  );
}
const online = fetched.ok ? it : it.skip;

const schema: unknown = JSON.parse(readFileSync('schemas/policy.schema.json', 'utf8'));
// useDefaults off: the schema is checked against the file exactly as init wrote it.
const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats.default(ajv);
const validate = ajv.compile(typeof schema === 'object' && schema !== null ? schema : {});

describe('aureus init on real code bases from the npm registry', () => {
  let restoreGit: () => Promise<void>;
  let work: { path: string; remove: () => Promise<void> };
  beforeAll(async () => {
    restoreGit = await isolateGit();
    // Commits made now: maturity then follows from the code's size, as for a fresh import.
    const now = new Date().toISOString();
    Object.assign(process.env, { GIT_AUTHOR_DATE: now, GIT_COMMITTER_DATE: now });
    work = await makeTempDir('init-real');
  });
  afterAll(async () => {
    await work?.remove();
    await restoreGit();
  });

  CODEBASES.forEach((codebase, index) => {
    online(
      `${codebase.name}@${codebase.version} is a ${codebase.expected}, with a valid policy and its reasons`,
      async () => {
        if (!fetched.ok) return;
        const source = fetched.folders[index] ?? '';
        const dir = join(work.path, codebase.name);
        const from = join(source, codebase.folder ?? '.');
        for (const name of codebase.keep ?? readdirSync(from)) {
          cpSync(join(from, name), join(dir, name), { recursive: true });
        }
        const repo = repoAt(dir);
        repo.git('init', '--quiet', '--initial-branch=main');
        repo.commit(`${codebase.name} ${codebase.version} from the npm registry`);

        const run = await runCliInProcess(['init', '--dry-run'], dir);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const marker = '.aureus/policy.yaml would be:\n\n';
        expect(run.stdout).toContain(marker);
        const [reasoning = '', text = ''] = run.stdout.split(marker);
        expect(reasoning).toContain(`  type        ${codebase.expected} (`);
        expect(reasoning).toContain('Why the policy says what it says');
        expect(reasoning).toMatch(/ {2}budgets\.core_loc: \{ target: \d+, hard: \d+ \} \(.+\)/);

        const parsed = parsePolicy(text, '.aureus/policy.yaml');
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems, null, 2));
        expect(parsed.policy.project.type).toBe(codebase.expected);
        // The file as written, before any default is filled in, against the published schema.
        const written: unknown = parse(text);
        expect(validate(written) ? [] : validate.errors).toEqual([]);
        expect(existsSync(join(dir, '.aureus/policy.yaml'))).toBe(false);
        expect(readdirSync(dir)).not.toContain('baseline.json');
      },
      240_000,
    );
  });
});
