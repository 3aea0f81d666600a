import { relative } from 'node:path';
import { readCommitHistory } from '../../git/commit-history.js';
import { learnedPolicy } from '../../learn/learned-policy.js';
import { renderProposal } from '../../learn/render-proposal.js';
import { writeOutputFile } from '../../memory/output-file.js';
import { builtInPolicy, readPolicySource } from '../../memory/policy-file.js';
import { storePaths } from '../../memory/store-paths.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';
import { readLedgers } from './read-ledgers.js';

/**
 * `aureus learn`: a policy proposal learned from the ledgers (the local one, and the shared one
 * with --shared, the App's with --file) and the git history, printed as a diff of
 * .aureus/policy.yaml with the evidence of every changed line. It never writes the policy: a
 * policy change needs a maintainer; --output writes the proposed file elsewhere. A ledger that
 * does not verify is said first and the run exits 1, as `ledger query` does.
 */
export async function learnCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const days = options.since === undefined ? undefined : parseDays(options.since);
  const path = storePaths(root).policy;
  const shown = relative(root, path);
  const source = await readPolicySource(path, relative(io.cwd, path) || path);
  const policy = source?.policy ?? (await builtInPolicy(undefined));
  const { lines, damaged } = await readLedgers(context, 'the proposal');
  const history = await readCommitHistory(root);
  const input = {
    policy,
    lines,
    commits: history.commits,
    historyCut: history.cut,
    now: Date.now(),
    windowDays: days ?? policy.learning.window_days,
  };
  const { proposal, after, diff } = learnedPolicy(input, source?.text ?? null, shown);
  for (const note of damaged) io.stderr(`aureus: ${note}\n`);
  if (options.output !== undefined)
    await writeOutputFile(options.output, after, { setting: '--output', repository: root });
  if (format === 'json')
    io.stdout(
      `${JSON.stringify({ policy: shown, verified: damaged.length === 0, ...proposal, diff }, null, 2)}\n`,
    );
  else if (format === 'yaml-patch') io.stdout(diff);
  else io.stdout(renderProposal(proposal, diff, shown));
  return damaged.length === 0 ? ExitCode.pass : ExitCode.rejected;
}

function parseDays(value: string): number {
  if (/^[1-9][0-9]{0,3}$/.test(value) && Number(value) <= 3650) return Number(value);
  throw new AureusError(
    `--since ${JSON.stringify(value)} is not a number of days.`,
    'give the days of ledger entries to learn from, 1 to 3650: --since 90.',
  );
}
