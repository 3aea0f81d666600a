import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** An OSC 8 hyperlink and an SGR colour: a name that would rewrite what the terminal shows. */
const HYPERLINK = 'src/\u001b]8;;https:evil.example\u0007link\u001b]8;;\u0007.ts';
const RED = 'src/\u001b[31mred.ts';

const POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 8\n    block: 10\n';

/** What the terminal must show instead of the control characters. */
const SHOWN = {
  hyperlink: 'src/\\u001B]8;;https:evil.example\\u0007link\\u001B]8;;\\u0007.ts',
  red: 'src/\\u001B[31mred.ts',
};

const exports = (count: number) =>
  Array.from({ length: count }, (_, i) => `export const v${i} = ${i};\n`).join('');

/** Every character that would act on a terminal, but the line breaks of the output itself. */
const RAW_CONTROL = /[^\P{Cc}\n]|\p{Bidi_Control}/u;

describe('untrusted text reaches the terminal escaped', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('escaped-output');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/util.ts', 'export const one = 1;\n');
    repo.commit('base');
  });
  afterEach(() => repo.remove());

  const aureus = (...args: string[]) => runCliInProcess(args, repo.dir);

  it('shows a policy key with ESC escaped in policy validate and in check', async () => {
    repo.write('.aureus/policy.yaml', `${POLICY}"\\e]8;;https:evil.example\\abudgetz": 1\n`);
    const validate = await aureus('policy', 'validate');
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain('\\u001B]8;;https:evil.example\\u0007budgetz');
    expect(validate.stderr).not.toMatch(RAW_CONTROL);
    repo.commit('a policy key with ESC');
    repo.write('src/util.ts', 'export const two = 2;\n');
    const check = await aureus('check');
    expect(check.code).toBe(2);
    expect(`${check.stdout}${check.stderr}`).toContain(
      '\\u001B]8;;https:evil.example\\u0007budgetz',
    );
    expect(`${check.stdout}${check.stderr}`).not.toMatch(RAW_CONTROL);
  });

  it('shows file names with ESC escaped in the text report, the price and the hook', async () => {
    repo.write(HYPERLINK, exports(6));
    repo.write(RED, exports(6));
    repo.git('add', '--all');
    for (const run of [
      await aureus('check', '--staged'),
      await aureus('price', '--staged'),
      await aureus('hook', 'pre-commit'),
    ]) {
      const shown = `${run.stdout}${run.stderr}`;
      expect(shown).not.toMatch(RAW_CONTROL);
      expect(shown).toContain(SHOWN.hyperlink);
      expect(shown).toContain(SHOWN.red);
    }
  });
});
