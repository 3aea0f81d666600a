import { runGit } from '../git/git-runner.js';
import type { ModelRequest } from '../llm/model-client.js';
import { inputTokenBound } from '../llm/request-size.js';
import type { MeteredModel } from '../llm/spend.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { recordAction } from './run-memory.js';
import type { Verification } from './run-verify.js';
import type { Scrub } from './safety/secret-scrubber.js';
import { inputChecker, isRefusal } from './tools/tool-input.js';
import { truncateText } from './tools/truncate-text.js';

/**
 * Three votes on the finished change, each with its reasons: the project's tests, the budget and
 * the critic (`aureus check` of the branch under the base policy), and a review by the planning
 * model in a fresh context that holds only the task and the branch's diff. The first two decide
 * whether the run is done; the review is reported beside them.
 */

export type Vote = 'approve' | 'request-changes' | 'not run';

export interface ReviewVote {
  readonly vote: Vote;
  readonly reasons: readonly string[];
}

export interface ReviewVotes {
  readonly tests: ReviewVote;
  readonly budget: ReviewVote;
  readonly review: ReviewVote;
}

export interface ReviewSettings {
  readonly root: string;
  readonly task: string;
  readonly startCommit: string;
  readonly branch: string;
  readonly policy: Policy;
  readonly model: MeteredModel;
  readonly scrub: Scrub;
  readonly memory: string;
}

const voteInput = {
  type: 'object',
  additionalProperties: false,
  required: ['vote', 'reasons'],
  properties: {
    vote: { type: 'string', enum: ['approve', 'request-changes'] },
    reasons: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 },
  },
};
const checkVote = inputChecker<{ vote: 'approve' | 'request-changes'; reasons: string[] }>(
  'vote',
  voteInput,
);

const SYSTEM = [
  'You review a change an automated builder made for the task below. You see only the task and the diff.',
  'Call vote once: approve when the diff does the task simply and correctly, else request-changes; give your reasons.',
].join('\n');

/** The tests' and the budget's votes, from the run's last verification of its branch as it ends. */
export async function verifiedVotes(
  settings: Pick<ReviewSettings, 'root' | 'branch' | 'policy'>,
  verification: Verification | null,
): Promise<Pick<ReviewVotes, 'tests' | 'budget'>> {
  const unverified = (why: string): ReviewVote => ({ vote: 'not run', reasons: [why] });
  if (verification === null) {
    const why = 'the run stopped before it verified its branch.';
    return { tests: unverified(why), budget: unverified(why) };
  }
  const tree = await runGit(settings.root, ['rev-parse', `${settings.branch}^{tree}`]);
  if (tree.stdout.toString('utf8').trim() !== verification.tree) {
    const why = 'the branch changed after its last verification (work kept when the run stopped).';
    return { tests: unverified(why), budget: unverified(why) };
  }
  const { tests, report } = verification;
  const testsVote: ReviewVote =
    tests === null
      ? unverified('project.stack.test_command is empty: the project names no tests to run.')
      : {
          vote: tests.run.exitCode === 0 ? 'approve' : 'request-changes',
          reasons: [
            `${tests.argv.join(' ')} ${tests.run.timedOut ? 'timed out' : `exited ${String(tests.run.exitCode)}`}.`,
          ],
        };
  const passed = report.verdict === 'pass' || report.verdict === 'warn';
  return {
    tests: testsVote,
    budget: {
      vote: passed ? 'approve' : 'request-changes',
      reasons:
        report.reasons.length > 0
          ? report.reasons
          : [
              `aureus check: ${report.verdict}, ${report.cost.total} points of ${report.budget.block}.`,
            ],
    },
  };
}

/**
 * The review vote: one call of the planning model, metered and capped like every call, with the
 * task and the diff (scrubbed, cut head and tail to half of cost_thresholds.context_tokens). A
 * call that cannot be made — a cap, no provider, no vote in the reply — is reported as not run,
 * with why: the run's work is done and is not lost for it.
 */
export async function reviewVote(settings: ReviewSettings): Promise<ReviewVote> {
  const { policy, scrub } = settings;
  const window = policy.cost_thresholds.context_tokens;
  const diff = await runGit(settings.root, [
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    settings.startCommit,
    settings.branch,
  ]);
  const text = `Task:\n${settings.task}\n\nThe diff of the change:\n${truncateText(diff.stdout.toString('utf8'), Math.floor(window / 2))}`;
  const request: ModelRequest = {
    system: SYSTEM,
    turns: [{ role: 'user', blocks: [{ type: 'text', text: scrub(text) }] }],
    tools: [
      {
        name: 'vote',
        description: 'Your vote on the change and its reasons.',
        inputSchema: voteInput,
      },
    ],
    maxTokens: policy.model_provider.max_tokens,
  };
  const vote = await ask(request, settings);
  await recordAction(settings.memory, {
    kind: 'review',
    vote: vote.vote,
    reasons: [...vote.reasons],
  });
  return vote;
}

async function ask(request: ModelRequest, settings: ReviewSettings): Promise<ReviewVote> {
  const { policy, scrub } = settings;
  const notRun = (why: string): ReviewVote => ({ vote: 'not run', reasons: [scrub(why)] });
  const tokens = inputTokenBound(request) + request.maxTokens;
  if (tokens > policy.cost_thresholds.context_tokens)
    return notRun(
      `the review needs ${tokens} tokens, over cost_thresholds.context_tokens (${policy.cost_thresholds.context_tokens}).`,
    );
  try {
    const reply = await settings.model.complete('planning', request);
    const use = reply.blocks.find((block) => block.type === 'tool_use' && block.name === 'vote');
    const checked = checkVote(use?.type === 'tool_use' ? use.input : undefined);
    if (isRefusal(checked)) return notRun(`the model gave no valid vote: ${checked.error}`);
    return { vote: checked.vote, reasons: checked.reasons.map(scrub) };
  } catch (error) {
    // A spend cap (SpendCapReached) or no provider answering: nothing to vote with.
    if (error instanceof AureusError) return notRun(error.message);
    throw error;
  }
}
