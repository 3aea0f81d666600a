import { authorIdentity } from '../../git/author-identity.js';
import { runGit } from '../../git/git-runner.js';
import { BUILDER_IDENTITY, type RunPlace, snapshotTree } from '../safety/checkpoints.js';
import type { ToolDefinition, ToolResult } from '../tool-contract.js';
import type { ToolContext } from './tool-context.js';
import { inputChecker, isRefusal } from './tool-input.js';
import { truncateText } from './truncate-text.js';

const noInput = { type: 'object', additionalProperties: false, properties: {} };
const commitInput = {
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: {
    message: { type: 'string', minLength: 1, maxLength: 5000, description: 'The commit message.' },
  },
};

/** git_status, git_diff and git_commit, on the run's tree and branch only. */
export function gitTools(context: ToolContext, run: RunPlace): ToolDefinition[] {
  return [gitStatus(context), gitDiff(context, run), gitCommit(context, run)];
}

function readOnly(
  name: string,
  description: string,
  run: () => Promise<ToolResult>,
): ToolDefinition {
  const check = inputChecker<Record<string, never>>(name, noInput);
  return {
    spec: { name, description, inputSchema: noInput },
    tier: 0,
    phases: ['gather', 'act', 'verify'],
    preview: async (input) => {
      const checked = check(input);
      return isRefusal(checked) ? checked : { kind: 'read' };
    },
    apply: async (input) => {
      const checked = check(input);
      return isRefusal(checked) ? checked : run();
    },
  };
}

const gitStatus = (context: ToolContext) =>
  readOnly('git_status', "Files changed in the run's tree since its last commit.", async () => {
    const listed = await runGit(context.tree, [
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
    ]);
    const fields = listed.stdout.toString('utf8').split('\0');
    const entries = [];
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i] ?? '';
      if (field.length < 4) continue;
      const status = field.slice(0, 2);
      entries.push({ status, path: field.slice(3) });
      if (status.includes('R') || status.includes('C')) i += 1;
    }
    return { ok: true, output: { entries } };
  });

const gitDiff = (context: ToolContext, run: RunPlace) =>
  readOnly(
    'git_diff',
    "The diff of the run's tree (new files included) against its last commit.",
    async () => {
      const tree = await snapshotTree(run);
      const diff = await runGit(context.tree, [
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        'HEAD',
        tree,
      ]);
      return {
        ok: true,
        output: { diff: truncateText(diff.stdout.toString('utf8'), context.maxResultBytes) },
      };
    },
  );

function gitCommit(context: ToolContext, run: RunPlace): ToolDefinition {
  const check = inputChecker<{ message: string }>('git_commit', commitInput);
  const message = async (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    const clean = sanitizeMessage(checked.message);
    if (clean === '') {
      return {
        ok: false as const,
        refusedBy: 'input' as const,
        error: 'the commit message is empty once cleaned.',
        hint: 'describe the change in plain words.',
      };
    }
    return clean;
  };
  return {
    spec: {
      name: 'git_commit',
      description: "Commits every change of the run's tree on the run's branch.",
      inputSchema: commitInput,
    },
    tier: 1,
    phases: ['act'],
    preview: async (input) => {
      const clean = await message(input);
      return typeof clean === 'string' ? { kind: 'commit', message: clean } : clean;
    },
    apply: async (input) => {
      const clean = await message(input);
      if (typeof clean !== 'string') return clean;
      return commitTree(context.tree, run, clean);
    },
  };
}

/**
 * Commits with plumbing (write-tree, commit-tree, update-ref): no hook of the repository runs,
 * no signing prompt waits. The author is the builder; the person running it is credited.
 */
async function commitTree(tree: string, run: RunPlace, message: string): Promise<ToolResult> {
  const text = (output: { stdout: Buffer }) => output.stdout.toString('utf8').trim();
  const snapshot = await snapshotTree(run);
  const head = text(await runGit(tree, ['rev-parse', '--verify', 'HEAD^{commit}']));
  if (snapshot === text(await runGit(tree, ['rev-parse', `${head}^{tree}`]))) {
    return {
      ok: false,
      error: 'there is nothing to commit.',
      hint: 'change files first, or go on without a commit.',
    };
  }
  const person = await authorIdentity(tree);
  const full = person === null ? message : `${message}\n\nCo-authored-by: ${person}`;
  const commit = text(
    await runGit(tree, ['commit-tree', '--no-gpg-sign', snapshot, '-p', head, '-F', '-'], {
      env: BUILDER_IDENTITY,
      input: full,
    }),
  );
  await runGit(tree, ['update-ref', '-m', 'aureus builder commit', 'HEAD', commit, head]);
  await runGit(tree, ['read-tree', 'HEAD']);
  return { ok: true, output: { commit, message: full } };
}

/**
 * The model's message without what could pass for a decision it may not take: no
 * `Aureus-Override` trailer (or any `Aureus-…:` line), no `Co-authored-by` it made up, no
 * control characters.
 */
export function sanitizeMessage(message: string): string {
  return (
    message
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .split('\n')
      .filter((line) => !/^\s*(?:aureus-[a-z-]*|co-authored-by|signed-off-by)\s*:/i.test(line))
      .join('\n')
      .trim()
  );
}
