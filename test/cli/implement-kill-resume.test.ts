import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';

const BIN = resolve('bin/aureus.js');
const call = (name: string, input: unknown) => ({
  blocks: [{ type: 'tool_use' as const, name, input }],
});

let restoreGit: () => Promise<void>;
let server: ScriptedModelServer;
const repos: Array<{ remove(): Promise<void> }> = [];
const children: ChildProcess[] = [];
let savedKey: string | undefined;

beforeAll(async () => {
  restoreGit = await isolateGit();
  server = await startScriptedModelServer();
  savedKey = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-kill';
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  await server.close();
  for (const repo of repos) await repo.remove();
  await restoreGit();
});

/** Resolves once `ready` holds, looking again every few milliseconds; rejects if `gone`. */
function until(ready: () => boolean, gone: () => string | undefined): Promise<void> {
  return new Promise((done, fail) => {
    const check = () => {
      const why = gone();
      if (why !== undefined) fail(new Error(why));
      else if (ready()) done();
      else setTimeout(check, 20);
    };
    check();
  });
}

describe('aureus implement killed mid-Act', () => {
  it('kill -9 while the model is asked, then --resume: nothing lost or done twice, the user’s copy untouched', async () => {
    const repo = await makeRepo('implement-kill');
    repos.push(repo);
    repo.write('package.json', '{ "type": "module" }\n');
    repo.write('src/sum.js', 'export function sum(a, b) {\n  return a + b;\n}\n');
    repo.write(
      '.aureus/policy.yaml',
      [
        'version: 1',
        'model_provider:',
        '  provider: anthropic',
        `  base_url: ${server.url}`,
        '',
      ].join('\n'),
    );
    repo.commit('base');
    const head = repo.git('rev-parse', 'HEAD');
    const branch = repo.git('symbolic-ref', 'HEAD');
    const index = readFileSync(join(repo.dir, '.git', 'index'));
    const first = server.requests.length;
    server.script(
      call('submit_plan', {
        steps: ['shorten sum'],
        files: ['src/sum.js'],
        estimate: { files_added: 0, files_changed: 1, lines: 2, abstractions: 0, dependencies: 0 },
      }),
      call('file_write', { path: 'src/sum.js', content: 'export const sum = (a, b) => a + b;\n' }),
      // The third request is never answered: the process is killed while it waits.
      { hold: true },
    );
    const child = spawn(process.execPath, [BIN, 'implement', 'Shorten sum', '--repo', repo.dir], {
      cwd: repo.dir,
      // The test's environment (git isolated, the key set), which a child does not get by itself.
      env: { ...process.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    let exited: string | undefined;
    child.on('exit', (code, signal) => {
      exited = `the run ended by itself (${String(code ?? signal)}) before it was killed: ${stderr}`;
    });
    await until(
      () => server.requests.length === first + 3,
      () => exited,
    );
    const killed = new Promise((done) => child.on('exit', done));
    child.kill('SIGKILL');
    await killed;

    const [id] = readdirSync(join(repo.dir, '.aureus', 'local', 'runs'));
    if (id === undefined) throw new Error('the killed run left no run folder');
    server.script(call('request_verify', {}), call('finish', { summary: 'Shorter.' }));
    const resumed = await runCliInProcess(
      ['implement', '--resume', id, '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report.status).toBe('done');
    expect(server.requests.at(-2)?.raw).toContain('resumed in the act phase');

    // The write made before the kill is on the branch once, in one commit.
    expect(repo.git('rev-list', '--count', `${head}..${report.branch}`)).toBe('1');
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toBe(
      'export const sum = (a, b) => a + b;',
    );
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory.match(/"tool":"file_write"/g)).toHaveLength(1);
    // The tree holds the write the last checkpoint (taken before it) does not: the trajectory says so.
    expect(trajectory).toContain('"treeAsLastCheckpoint":false');

    // The user's branch, index and files are as they were.
    expect(repo.git('rev-parse', 'HEAD')).toBe(head);
    expect(repo.git('symbolic-ref', 'HEAD')).toBe(branch);
    expect(readFileSync(join(repo.dir, '.git', 'index')).equals(index)).toBe(true);
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});
