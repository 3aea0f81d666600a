import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoAt } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  codeLines,
  OWNER,
  pullRequestEvent,
  pushToFeature,
  REPO,
  type Scenario,
} from './support/pull-request-scenario.js';

/** What the pull_request job of the README declares: `permissions:` of the workflow. */
const PR_TOKEN = 'ghs_pull_request_job';
const FORK_TOKEN = 'ghs_fork_read_only';
const MARKER = '<!-- aureus:ledger -->';

const session = useActionTestSession({
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
  [FORK_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'read' },
});

function runOnPullRequest(
  made: Scenario,
  options: {
    token?: string;
    fork?: boolean;
    inputs?: Record<string, string>;
    action?: string;
  } = {},
): Promise<ActionRun> {
  return runAction({
    runnerDir: made.runnerDir,
    workspace: made.workspace,
    eventName: 'pull_request',
    event: pullRequestEvent(made, { fork: options.fork, action: options.action }),
    sha: made.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': options.token ?? PR_TOKEN, ...options.inputs },
  });
}

function operations(): string[] {
  return session.double.requests().map((request) => `${request.method} ${request.operationId}`);
}

describe('the Action on a pull request', () => {
  it('fails an over-budget change with one sticky comment and a check run, then edits the comment when a push fixes it', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 80)),
    );
    const blocked = await runOnPullRequest(made);
    expect(blocked.exitCode).toBe(1);
    expect(blocked.outputs.verdict).toBe('block');
    expect(Number(blocked.outputs['total-cost'])).toBeGreaterThan(60);
    expect(JSON.parse(blocked.outputs['cost-breakdown'] ?? '{}')).toMatchObject({
      loc: expect.any(Number),
    });
    expect(blocked.summary).toContain('BLOCK');
    expect(blocked.stdout).toContain('Fetched the base commit');
    expect(operations()).toEqual([
      'GET git/get-ref',
      'GET issues/list-comments',
      'POST issues/create-comment',
      'POST checks/create',
    ]);
    const [comment] = session.double.issueComments(OWNER, REPO, 7);
    expect(comment?.body.startsWith(MARKER)).toBe(true);
    expect(comment?.body).toContain('over the budget of 60');
    expect(comment?.user).toBe('github-actions[bot]');
    const [check] = session.double.checkRuns(OWNER, REPO);
    expect(check).toMatchObject({ name: 'AUREUS', headSha: made.headSha, conclusion: 'failure' });

    session.double.reset();
    pushToFeature(made, (origin) => origin.write('src/feature.ts', codeLines('feature', 5)));
    const fixed = await runOnPullRequest(made, { action: 'synchronize' });
    expect(fixed.exitCode).toBe(0);
    expect(fixed.outputs.verdict).toMatch(/^(pass|warn)$/);
    expect(operations()).toEqual([
      'GET git/get-ref',
      'GET issues/list-comments',
      'PATCH issues/update-comment',
      'POST checks/create',
    ]);
    const comments = session.double.issueComments(OWNER, REPO, 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.id).toBe(comment?.id);
    expect(comments[0]?.body).not.toContain('over the budget');
    const latest = session.double
      .checkRuns(OWNER, REPO)
      .find((run) => run.headSha === made.headSha);
    expect(latest?.conclusion).toMatch(/^(success|neutral)$/);
  });

  it('passes an under-budget change', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/small.ts', codeLines('small', 4)),
    );
    const run = await runOnPullRequest(made);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.verdict).toBe('pass');
    expect(run.outputs['blocking-findings']).toBe('0');
    expect(session.double.checkRuns(OWNER, REPO).at(-1)?.conclusion).toBe('success');
  });

  it('fails a change that adds a file that does not parse, annotating its line and column', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/broken.ts', 'export const one = 1;\nexport const = ;\n'),
    );
    const run = await runOnPullRequest(made);
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe('block');
    expect(run.outputs['blocking-findings']).toBe('1');
    const check = session.double.checkRuns(OWNER, REPO).at(-1);
    expect(check?.annotations).toEqual([
      expect.objectContaining({
        path: 'src/broken.ts',
        start_line: 2,
        end_line: 2,
        start_column: 14,
        end_column: 14,
        annotation_level: 'failure',
        title: 'AUREUS unparsable_file (new)',
      }),
    ]);
    const logged = await runOnPullRequest(made, {
      inputs: { annotations: 'log', comment: 'false' },
    });
    expect(logged.stdout).toContain(
      '::error file=src/broken.ts,line=2,endLine=2,col=14,title=AUREUS unparsable_file (new)::src/broken.ts does not parse as TypeScript (line 2, column 14: Variable declaration expected.)',
    );
  });

  it('stops with a tool error that names fetch-depth when the shallow clone cannot get the base', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 4)),
    );
    repoAt(made.workspace).git('remote', 'remove', 'origin');
    const run = await runOnPullRequest(made);
    expect(run.exitCode).toBe(2);
    expect(run.outputs.verdict).toBe('incomplete');
    expect(run.stdout).toMatch(/::error::.*missing from this shallow clone/);
    expect(run.stdout).toContain('fetch-depth: 0');
    expect(run.summary).toContain('AUREUS could not decide');
    expect(session.double.checkRuns(OWNER, REPO).at(-1)).toMatchObject({
      headSha: made.headSha,
      conclusion: 'failure',
      title: 'AUREUS could not decide',
    });
  });

  it('on a fork, with a read-only token, posts nothing and still fails over budget', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 80)),
    );
    const run = await runOnPullRequest(made, { token: FORK_TOKEN, fork: true });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe('block');
    expect(session.double.requests()).toEqual([]);
    expect(run.summary).toContain('BLOCK');
    expect(run.stdout).toContain('Pull request from a fork');
    expect(run.stdout).toMatch(/^::error file=src\/feature\.ts|^::error::AUREUS/m);
  });

  it('judges a policy edit by the base policy and flags it', async () => {
    const made = await session.scenario((origin) => {
      origin.write(
        '.aureus/policy.yaml',
        'version: 1\nbudgets:\n  change:\n    warn: 90000\n    block: 100000\n',
      );
      origin.write('src/feature.ts', codeLines('feature', 80));
    });
    // A loosening is looked up in the pull request's reviews: GitHub has the pull request.
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 7,
      baseSha: made.baseSha,
      headSha: made.headSha,
    });
    const run = await runOnPullRequest(made);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('Policy change — needs maintainer approval');
    expect(session.double.issueComments(OWNER, REPO, 7).at(-1)?.body).toContain(
      'over the budget of 60',
    );
  });

  it('blocks a pull request whose new policy does not validate, with its file:line:col', async () => {
    const made = await session.scenario((origin) => {
      origin.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change:\n    block: lots\n');
      origin.write('src/feature.ts', codeLines('feature', 2));
    });
    const run = await runOnPullRequest(made);
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe('block');
    expect(run.stdout).toContain('the new policy does not validate: .aureus/policy.yaml:4:12: ');
  });

  it('never follows a symlink a pull request adds, to the policy or to code (THREATS row 18)', async () => {
    const made = await session.scenario((origin) => {
      origin.git('rm', '--quiet', '.aureus/policy.yaml');
      origin.symlink('/proc/self/environ', '.aureus/policy.yaml');
      origin.symlink('/etc/passwd', 'src/a.ts');
      origin.write('src/feature.ts', codeLines('feature', 80));
    });
    const run = await runOnPullRequest(made);
    // Judged by the base policy (a regular file there), the link reported as a policy change.
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('over the budget of 60');
    expect(run.stdout).toContain('Policy change (judged by .aureus/policy.yaml@');
    const published = [
      run.stdout,
      run.summary,
      ...session.double.issueComments(OWNER, REPO, 7).map((comment) => comment.body),
    ].join('\n');
    expect(published).not.toMatch(/root:.*:0:0:/);
    expect(published).not.toContain('PATH=');
  });

  it('never writes its SARIF file through a link the pull request commits (THREATS row 35)', async () => {
    const outside = await makeTempDir('action-outside');
    try {
      const made = await session.scenario((origin) => {
        origin.symlink(join(outside.path, 'x'), 'aureus.sarif');
        origin.write('src/small.ts', codeLines('small', 4));
      });
      const run = await runOnPullRequest(made, { inputs: { 'sarif-file': 'aureus.sarif' } });
      expect(readdirSync(outside.path)).toEqual([]);
      expect(run.exitCode).toBe(2);
      expect(run.outputs.verdict).toBe('incomplete');
      expect(run.stdout).toMatch(
        /::error::.*aureus\.sarif is a symbolic link; AUREUS never writes through a link/,
      );
      expect(run.summary).toContain('AUREUS could not decide');
      expect(lstatSync(join(made.workspace, 'aureus.sarif')).isSymbolicLink()).toBe(true);
    } finally {
      await outside.remove();
    }
  });

  it('never writes its SARIF file into a folder that links out of the workspace', async () => {
    const outside = await makeTempDir('action-outside');
    try {
      const made = await session.scenario((origin) => {
        origin.symlink(outside.path, 'reports');
        origin.write('src/small.ts', codeLines('small', 4));
      });
      const run = await runOnPullRequest(made, {
        inputs: { 'sarif-file': 'reports/aureus.sarif' },
      });
      expect(readdirSync(outside.path)).toEqual([]);
      expect(run.exitCode).toBe(2);
      expect(run.stdout).toMatch(/::error::.*reports\/aureus\.sarif is outside the workspace/);
    } finally {
      await outside.remove();
    }
  });

  it('prints a hostile file name literally, never as a workflow command', async () => {
    const hostile = '::error file=x::pwn';
    const made = await session.scenario((origin) => origin.write(hostile, 'export const a = 1;\n'));
    const run = await runOnPullRequest(made, { inputs: { annotations: 'log' } });
    const stopped = /^::stop-commands::([0-9a-f-]{36})$/m.exec(run.stdout)?.[1];
    expect(stopped).toBeDefined();
    const outside = run.stdout.split(`::stop-commands::${stopped}`)[0] ?? '';
    const after = run.stdout.split(`::${stopped}::`)[1] ?? '';
    for (const line of `${outside}\n${after}`.split('\n'))
      expect(line.startsWith(hostile)).toBe(false);
    expect(run.stdout).toContain(hostile); // shown, inside the stop-commands block
  });

  it('shows file names with ESC escaped in the log: the report and the annotations (THREATS row 34)', async () => {
    const names = [
      'src/\u001b[31mred.ts',
      'src/\u001b]8;;https:evil.example\u0007link\u001b]8;;\u0007.ts',
    ];
    const made = await session.scenario((origin) => {
      for (const [index, name] of names.entries())
        origin.write(name, `export let counter${index} = 0;\n${codeLines(`f${index}`, 40)}`);
    });
    const run = await runOnPullRequest(made, { inputs: { annotations: 'log' } });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toMatch(/[^\P{Cc}\n]|\p{Bidi_Control}/u);
    expect(run.stdout).toContain('src/\\u001B[31mred.ts');
    expect(run.stdout).toContain('::warning file=src/\\u001B[31mred.ts,');
    expect(run.stdout).toContain(
      'src/\\u001B]8;;https%3Aevil.example\\u0007link\\u001B]8;;\\u0007.ts',
    );
  });

  it('puts 120 annotations on a check run in three requests of at most 50', async () => {
    const made = await session.scenario((origin) => {
      for (let index = 0; index < 120; index++)
        origin.write(`src/state-${index}.ts`, `export let counter${index} = 0;\n`);
    }, 'version: 1\nbudgets:\n  change:\n    warn: 90000\n    block: 100000\n');
    // 120 new files break the core-files budget: reported, but only the cost fails this step.
    const run = await runOnPullRequest(made, { inputs: { comment: 'false', 'fail-on': 'budget' } });
    expect(run.exitCode).toBe(0);
    // (Reflexion's delivery follows; action-simplify.test.ts covers it.)
    expect(operations().filter((operation) => operation.includes(' checks/'))).toEqual([
      'POST checks/create',
      'PATCH checks/update',
      'PATCH checks/update',
    ]);
    const check = session.double.checkRuns(OWNER, REPO).at(-1);
    expect(check?.annotations.length).toBeGreaterThanOrEqual(120);
    expect(check?.conclusion).toBe('neutral');
  });
});
