import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { leaksIn, makeCanaries } from '../support/canaries.js';
import { makeRepo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const canaries = makeCanaries(['EXTRA_HEADER', 'CREDENTIAL_STORE', 'MODEL_KEY']);
const session = useImplementSession(canaries.MODEL_KEY ?? '');

/**
 * A command the policy allows, as a test script the model may have rewritten would be: it
 * prints git's whole configuration as the run's tree sees it, the extra header decoded, and
 * the credential store git's helper names, in plain, cut, split, base64, hex and reversed.
 */
const PROBE = `import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const config = execFileSync('git', ['config', '--list', '--show-origin']).toString();
const store = config.match(/credential\\.helper=store --file (\\S+)/)?.[1];
const header = config.match(/extraheader=AUTHORIZATION: basic (\\S+)/)?.[1] ?? '';
const text = [config, Buffer.from(header, 'base64').toString(), store ? readFileSync(store, 'utf8') : ''].join('\\n');
for (const word of text.split(/[\\s=:@]+/).filter((each) => each.length >= 16))
  console.log(word, word.slice(7), '|', word.slice(0, 20), '|', word.slice(20), '|', [...word].reverse().join(''));
console.log(Buffer.from(text).toString('base64'));
console.log(Buffer.from(text).toString('hex'));
`;

describe('aureus implement: the secrets git configuration holds', () => {
  it('never reach the model, whatever a command of the run prints of them', async () => {
    const repo = await makeRepo('implement-git-config');
    session.repos.push(repo);
    const outside = await makeTempDir('credential-store');
    session.repos.push(outside);
    repo.write('probe.mjs', PROBE);
    repo.write(
      '.aureus/policy.yaml',
      [
        'version: 1',
        'permissions:',
        '  allowed_commands:',
        '    - [node, probe.mjs]',
        'model_provider:',
        '  provider: anthropic',
        `  base_url: ${session.server.url}`,
        '',
      ].join('\n'),
    );
    repo.commit('base');
    // The checkout's own credentials, as actions/checkout leaves them by default.
    const basic = Buffer.from(`x-access-token:${canaries.EXTRA_HEADER}`).toString('base64');
    repo.git('config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${basic}`);
    const store = join(outside.path, 'credentials');
    writeFileSync(store, `https://bot:${canaries.CREDENTIAL_STORE}@example.test\n`);
    repo.git('config', 'credential.helper', `store --file ${store}`);
    session.server.script(
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'submit_plan',
            input: {
              steps: ['probe'],
              files: ['src/a.js'],
              estimate: {
                files_added: 1,
                files_changed: 0,
                lines: 10,
                abstractions: 0,
                dependencies: 0,
              },
            },
          },
        ],
      },
      {
        blocks: [{ type: 'tool_use', name: 'shell_exec', input: { argv: ['node', 'probe.mjs'] } }],
      },
      { blocks: [{ type: 'tool_use', name: 'finish', input: { summary: 'Probed.' } }] },
    );
    const before = session.server.requests.length;
    const run = await runCliInProcess(
      ['implement', 'Probe the configuration', '--yes', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    const sent = session.server.requests.slice(before).map((request) => request.raw);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    // The probe ran and printed its findings, which the model got scrubbed.

    expect(sent[2]).toContain('credential.helper');
    expect(leaksIn([...sent, run.stdout, run.stderr].join('\n'), canaries)).toEqual([]);
  });
});
