import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { knownSecrets } from '../../src/agent/safety/known-secrets.js';
import {
  REDACTED,
  type Scrub,
  secretFinder,
  secretScrubber,
} from '../../src/agent/safety/secret-scrubber.js';
import { scrubResult } from '../../src/agent/tools/scrub-result.js';
import { canary, leaksIn } from '../support/canaries.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

const FROM_ENV = 'canary-env-7f3a9c1d2e';
const MODEL_KEY = 'local-model-key-5b8e0d';
const FROM_FILE = 'canary-file-0c4d8e2f91';
const FROM_NPMRC = 'canary-npmrc-33aa9911bb';
const FROM_HEADER = Buffer.from('x-access-token:canary-header-6e1f').toString('base64');
const FROM_URL = 'canary-url-pw-9d2c4b';

let repo: Repo & { remove(): Promise<void> };
let scrub: Scrub;

beforeAll(async () => {
  repo = await makeRepo('secret-scrubber');
  repo.write('.env', `# local settings\nNODE_ENV=production\nDEPLOY_SECRET="${FROM_FILE}"\n`);
  repo.write('.npmrc', `//registry.example.test/:_authToken=${FROM_NPMRC}\n`);
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.commit('fixture');
  repo.git(
    'config',
    'http.https://example.test/.extraheader',
    `AUTHORIZATION: basic ${FROM_HEADER}`,
  );
  repo.git('config', 'remote.origin.url', `https://bot:${FROM_URL}@example.test/x.git`);
  const secrets = await knownSecrets({
    tree: repo.dir,
    env: { CANARY_API_TOKEN: FROM_ENV, MY_MODEL: MODEL_KEY, PATH: '/usr/bin', HOME: '/home/x' },
    alsoSecret: ['MY_MODEL'],
  });
  scrub = secretScrubber(secrets);
});

afterAll(() => repo.remove());

const forms = (value: string): Record<string, string> => ({
  plain: value,
  base64: Buffer.from(value).toString('base64'),
  'base64 inside a larger blob': Buffer.from(`user=${value};x`).toString('base64'),
  base64url: Buffer.from(`??${value}`).toString('base64url'),
  hex: Buffer.from(value).toString('hex'),
  HEX: Buffer.from(value).toString('hex').toUpperCase(),
  reversed: [...value].reverse().join(''),
  'URL-encoded': encodeURIComponent(value),
});

describe('the canary never survives scrub', () => {
  it.each([
    ['the environment', FROM_ENV],
    ["the model's key variable", MODEL_KEY],
    ['a file of the repository', FROM_FILE],
    ['an .npmrc token', FROM_NPMRC],
    ["git config's extra header", FROM_HEADER],
    ["a password in git config's remote URL", FROM_URL],
  ])('from %s, in any form', (_source, value) => {
    for (const [form, text] of Object.entries(forms(value))) {
      const scrubbed = scrub(`before ${text} after`);
      expect({ form, leaked: scrubbed.includes(text) }).toEqual({ form, leaked: false });
      expect(scrubbed).toContain('before ');
    }
  });
});

describe('a part of a known secret', () => {
  const value = canary();
  const partial = secretScrubber([value]);
  const reversed = [...value].reverse().join('');

  it.each([
    ['its first seven characters dropped', value.slice(7)],
    ['its first half, alone on a line', value.slice(0, 20)],
    ['its second half, alone on a line', value.slice(20)],
    ['a slice of it reversed', reversed.slice(3, 15)],
    ['the hex of its second half', Buffer.from(value.slice(20)).toString('hex')],
    ['the base64 of its second half', Buffer.from(`k=${value.slice(21)}`).toString('base64')],
  ])('is removed: %s', (_form, text) => {
    const scrubbed = partial(`before\n${text}\nafter`);
    expect(leaksIn(scrubbed, { value })).toEqual([]);
    expect(scrubbed).toMatch(/^before\n.*\[REDACTED\].*\nafter$/);
  });

  it('is found by the finder, and ordinary text is not', () => {
    const holds = secretFinder([value]);
    expect(holds(`x ${value.slice(0, 9)}`)).toBe(true);
    expect(holds(`${value.slice(30)}|${value.slice(22, 30)}`)).toBe(true);
    expect(holds('export const greet = () => "hello";')).toBe(false);
  });

  it('is not looked for in a path, nor in the scheme and host of a URL', () => {
    const paths = secretScrubber([
      '/tmp/ssh-XXXXabcd/agent.1234',
      'https://pipelines.example.test/x',
    ]);
    const text = 'see /tmp/ssh-other and https://pipelines.example.test/y';
    expect(paths(text)).toBe(text);
  });

  it.each([
    ['a password of any characters', 'P@ss!word#2024-long-and-secret'],
    [
      'a webhook URL past its host',
      'https://hooks.slack.com/services/T0CAN4RY/B0CAN4RY/Xsecr3tHook',
    ],
    [
      'a DSN whose key is before the host',
      'https://0a1b2c3d4e5f60718293a4b5c6d7e8f9@o1.ingest.sentry.io/1',
    ],
  ])('is removed from %s printed in two halves, and found in either', (_kind, value) => {
    const middle = Math.floor(value.length / 2);
    const halves = [value.slice(0, middle), value.slice(middle)];
    const scrubbed = secretScrubber([value])(`one: ${halves[0]}\ntwo: ${halves[1]}\n`);
    for (const half of halves) expect(scrubbed).not.toContain(half);
    const holds = secretFinder([value]);
    for (const half of halves) expect(holds(`x ${half} y`)).toBe(true);
  });
});

describe('a credential file too large to read whole', () => {
  it('refuses the run, naming the file and the limit, rather than leave its values unknown', async () => {
    const padded = await makeRepo('secret-padded');
    try {
      const hidden = canary();
      padded.write('.env', `${'# padding\n'.repeat(30_000)}DEPLOY_SECRET=${hidden}\n`);
      padded.commit('padded');
      await expect(knownSecrets({ tree: padded.dir, env: {} })).rejects.toThrow(
        '.env is larger than 262144 bytes (256 KiB), the most AUREUS reads of a credential file',
      );
    } finally {
      await padded.remove();
    }
  });

  it("refuses the same way for a home folder's credential file", async () => {
    const home = await makeRepo('secret-home-padded');
    try {
      home.write('.netrc', `${'#\n'.repeat(140_000)}machine x login y password ${canary()}\n`);
      await expect(knownSecrets({ tree: repo.dir, env: { HOME: home.dir } })).rejects.toThrow(
        `${home.dir}/.netrc is larger than 262144 bytes (256 KiB)`,
      );
    } finally {
      await home.remove();
    }
  });
});

describe("the home folder's credential files, and the store git's credential helper names", () => {
  it('are known secrets, in any form', async () => {
    const home = await makeRepo('secret-home');
    const inStore = canary();
    const inCredentials = canary();
    const inNpmrc = canary();
    const inNetrc = canary();
    try {
      home.write('.git-credentials', `https://x-access-token:${inCredentials}@github.com\n`);
      home.write('.npmrc', `//registry.npmjs.org/:_authToken=${inNpmrc}\n`);
      home.write('.netrc', `machine github.com login x password ${inNetrc}\n`);
      home.write('elsewhere/store', `https://bot:${inStore}@example.test\n`);
      repo.git('config', 'credential.helper', `store --file ${home.dir}/elsewhere/store`);
      const secrets = await knownSecrets({
        tree: repo.dir,
        env: { HOME: home.dir, PATH: '/usr/bin' },
      });
      const homeScrub = secretScrubber(secrets);
      for (const value of [inStore, inCredentials, inNpmrc, inNetrc]) {
        const printed = `${Buffer.from(`creds ${value}`).toString('base64')}\n${value.slice(7)}`;
        expect(leaksIn(homeScrub(printed), { value })).toEqual([]);
      }
      // The helper names the store; it is no secret, so git's listing of it reads as it is.
      const listing = `credential.helper=store --file ${home.dir}/elsewhere/store`;
      expect(homeScrub(listing)).toBe(listing);
    } finally {
      repo.git('config', '--unset', 'credential.helper');
      await home.remove();
    }
  });

  it('count an inline helper as a secret whole, with the password it echoes', async () => {
    const inline = canary();
    try {
      repo.git('config', 'credential.helper', `!f() { echo "password=${inline}"; }; f`);
      const scrub = secretScrubber(await knownSecrets({ tree: repo.dir, env: {} }));
      expect(leaksIn(scrub(`password=${inline}\n${inline.slice(5)}`), { inline })).toEqual([]);
    } finally {
      repo.git('config', '--unset', 'credential.helper');
    }
  });
});

describe('known token formats', () => {
  it.each([
    ['GitHub classic', `ghp_${'a1B2'.repeat(9)}`],
    ['GitHub app', `ghs_${'Z9y8'.repeat(9)}`],
    ['GitHub fine-grained', `github_pat_11ABCDEFG0_${'x'.repeat(59)}`],
    ['Anthropic', `sk-ant-api03-${'Q'.repeat(40)}`],
    ['OpenAI', `sk-proj-${'abc123'.repeat(8)}`],
    ['AWS', 'AKIAIOSFODNN7EXAMPLE'],
    ['Slack', 'xoxb-123456789012-abcdefABCDEF'],
    ['npm', `npm_${'n'.repeat(36)}`],
    [
      'JWT',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ],
    [
      'private key',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
    ],
  ])('%s', (_format, token) => {
    const scrubbed = scrub(`value: ${token}\n`);
    expect(scrubbed).not.toContain(token);
    expect(scrubbed).toContain(REDACTED);
  });

  it('removes what is assigned to secret names, and learns it', () => {
    const fresh = secretScrubber([]);
    expect(fresh('const config = { apiToken: "s3cr3t-value-1234" };')).toBe(
      `const config = { apiToken: "${REDACTED}" };`,
    );
    expect(fresh('echo s3cr3t-value-1234')).toBe(`echo ${REDACTED}`);
    expect(fresh('Authorization: Bearer abcdefghijklmnop')).toBe(
      `Authorization: Bearer ${REDACTED}`,
    );
  });

  it('leaves ordinary code and settings alone', () => {
    const code = [
      'const token = getToken();',
      'const author = "Ada Lovelace";',
      'NODE_ENV=production',
      'password: string;',
      'git log --author=someone',
    ].join('\n');
    expect(scrub(code)).toBe(code);
  });

  it('stays fast on hostile text', () => {
    const hostile = `${'a.'.repeat(200_000)}\n${'x-'.repeat(200_000)}`;
    expect(scrub(hostile)).toBe(hostile);
  });
});

describe('scrubResult', () => {
  it('scrubs every text of a tool result, keys included', () => {
    const result = scrubResult(
      { ok: true, output: { stdout: `token ${FROM_ENV}`, list: [FROM_FILE, 3], [FROM_URL]: true } },
      scrub,
    );
    expect(JSON.stringify(result)).not.toMatch(/canary/);
    expect(scrubResult({ ok: false, error: FROM_ENV, hint: FROM_FILE }, scrub)).toEqual({
      ok: false,
      error: REDACTED,
      hint: REDACTED,
    });
  });
});
