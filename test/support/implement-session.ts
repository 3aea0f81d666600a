import { afterAll, beforeAll } from '@jest/globals';
import { isolateGit } from './git-fixture.js';
import { type ScriptedModelServer, startScriptedModelServer } from './scripted-model-server.js';

/**
 * What every `aureus implement` test file needs: git isolated from this machine, a scripted
 * Messages API server, `ANTHROPIC_API_KEY` set to `apiKey` (and put back), and the repositories
 * the file makes removed at the end (push them on `repos`).
 */
export function useImplementSession(apiKey: string): {
  readonly server: ScriptedModelServer;
  readonly repos: Array<{ remove(): Promise<void> }>;
} {
  let restoreGit: (() => Promise<void>) | undefined;
  let started: ScriptedModelServer | undefined;
  let savedKey: string | undefined;
  const repos: Array<{ remove(): Promise<void> }> = [];
  beforeAll(async () => {
    restoreGit = await isolateGit();
    started = await startScriptedModelServer();
    savedKey = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = apiKey;
  });
  afterAll(async () => {
    if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = savedKey;
    await started?.close();
    for (const repo of repos) await repo.remove();
    await restoreGit?.();
  });
  return {
    get server(): ScriptedModelServer {
      if (started === undefined) throw new Error('the scripted model server starts in beforeAll');
      return started;
    },
    repos,
  };
}
