import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  loadState,
  type RunState,
  recordAction,
  runDir,
  saveState,
} from '../../src/agent/run-memory.js';
import { readJournal } from '../../src/memory/journal.js';
import { makeRepo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { makeTempDir } from '../support/temp-dir.js';

useIsolatedGit();

const state: RunState = {
  id: 'abc123',
  task: 'add a greeting',
  branch: 'aureus/add-a-greeting-abc123',
  startCommit: '0'.repeat(40),
  phase: 'act',
  turns: 4,
  iteration: 1,
  spentPoints: 12,
  tokens: 900,
  dollars: 0.01,
  checkpoints: ['1'.repeat(40)],
  plan: { steps: ['write greet.js'] },
};

describe("a run's memory in the local store", () => {
  it('keeps state.json for --resume and a hash-chained trajectory, in .aureus/local/runs/<id>/', async () => {
    const repo = await makeRepo('run-memory');
    repo.write('README.md', 'hello\n');
    repo.commit('start');
    const dir = await runDir(repo.dir, state.id);
    expect(dir).toBe(join(repo.dir, '.aureus', 'local', 'runs', state.id));
    await saveState(dir, state);
    expect(await loadState(dir)).toEqual(state);
    await recordAction(dir, { tool: 'file_write', gates: { phase: 'pass' } });
    await recordAction(dir, { tool: 'file_write', gates: { phase: 'refused' } });
    const journal = await readJournal(join(dir, 'trajectory.jsonl'));
    expect(journal.problems).toEqual([]);
    expect(journal.entries).toHaveLength(2);
    // The local store ignores itself: nothing of the run shows in the user's status.
    expect(repo.git('status', '--porcelain')).toBe('');
    await repo.remove();
  });

  it('refuses a --resume id that is not a run id, so it cannot name a path', async () => {
    const repo = await makeRepo('run-memory-id');
    await expect(runDir(repo.dir, '../../etc')).rejects.toThrow('is not a run id');
    await expect(loadState(join(repo.dir, 'nowhere'))).rejects.toThrow('no run state');
    await repo.remove();
  });

  it('refuses a local store the checkout links elsewhere', async () => {
    const repo = await makeRepo('run-memory-link');
    const elsewhere = await makeTempDir('elsewhere');
    await symlink(elsewhere.path, join(repo.dir, '.aureus'));
    await expect(runDir(repo.dir, state.id)).rejects.toThrow('symbolic link');
    await expect(readFile(join(elsewhere.path, 'local', 'runs'))).rejects.toThrow();
    await repo.remove();
    await elsewhere.remove();
  });
});
