import { runGit } from '../git/git-runner.js';
import type { ModelRequest } from '../llm/model-client.js';
import { inputTokenBound } from '../llm/request-size.js';
import type { MeteredModel } from '../llm/spend.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import type { ReviewVote } from './review-vote.js';
import { recordAction } from './run-memory.js';
import type { RunSimplification } from './run-reflexion.js';
import type { Verification } from './run-verify.js';
import type { Scrub } from './safety/secret-scrubber.js';
import { type TestQualitySettings, testQualityVote } from './test-quality.js';
import { inputChecker, isRefusal } from './tools/tool-input.js';
import { truncateText } from './tools/truncate-text.js';

/**
 * The votes on the finished change, each with its evidence:
 * - correctness: the project's test command on the branch as it ends (the policy names no
 *   separate type check: a project whose tests run one, `npm test` running tsc, has it here);
 * - test quality: the tests the run added or changed fail on the start commit and pass on the
 *   branch (test-quality.ts);
 * - elegance: the critic's findings (new against baseline), reflexion's verified patches left
 *   unapplied and the branch's price against the planner's estimate, from the same `aureus
 *   check` of the branch Verify ran;
 * - review: the planning model in a fresh context that holds only the task and the diff.
 * Correctness and test quality decide whether the run is done, and elegance does when the check
 * blocks (a new error finding, or the change over budget); the review is advisory.
 */

export type { ReviewVote, Vote } from './review-vote.js';

export interface ReviewVotes {
  readonly correctness: ReviewVote;
  readonly testQuality: ReviewVote;
  readonly elegance: ReviewVote;
  readonly review: ReviewVote;
}

/** The votes that decide "done", in the words the report and the README use. */
export const DECIDING_VOTES =
  'correctness and test quality must not request changes, and elegance must approve (it requests changes when aureus check blocks); the review is advisory';

/** Whether the deciding votes let the run be done. */
export function votesAllowDone(
  votes: Pick<ReviewVotes, 'correctness' | 'testQuality' | 'elegance'>,
): boolean {
  return (
    votes.correctness.vote !== 'request-changes' &&
    votes.testQuality.vote !== 'request-changes' &&
    votes.elegance.vote === 'approve'
  );
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

export interface VerifiedVoteSettings extends TestQualitySettings {
  /** The plan's estimate in points, when the plan gave one. */
  readonly estimatedPoints: number | null;
  /** Reflexion's verified patches the run did not keep (their commit failed Verify). */
  readonly unapplied: readonly RunSimplification[];
}

/** The correctness, test-quality and elegance votes on the branch as it ends. */
export async function verifiedVotes(
  settings: VerifiedVoteSettings,
  verification: Verification | null,
): Promise<Pick<ReviewVotes, 'correctness' | 'testQuality' | 'elegance'>> {
  const unverified = (why: string): ReviewVote => ({ vote: 'not run', reasons: [why] });
  const allUnverified = (why: string) => ({
    correctness: unverified(why),
    testQuality: unverified(why),
    elegance: unverified(why),
  });
  if (verification === null) return allUnverified('the run stopped before it verified its branch.');
  const tree = await runGit(settings.root, ['rev-parse', `${settings.branch}^{tree}`]);
  if (tree.stdout.toString('utf8').trim() !== verification.tree)
    return allUnverified(
      'the branch changed after its last verification (work kept when the run stopped).',
    );
  const { tests } = verification;
  const correctness: ReviewVote =
    tests === null
      ? unverified('project.stack.test_command is empty: the project names no tests to run.')
      : {
          vote: tests.run.exitCode === 0 ? 'approve' : 'request-changes',
          reasons: [
            `${tests.argv.join(' ')} ${tests.run.timedOut ? 'timed out' : `exited ${String(tests.run.exitCode)}`} on the branch.`,
          ],
        };
  return {
    correctness,
    testQuality: await testQualityVote(settings),
    elegance: eleganceVote(verification.report, settings),
  };
}

/**
 * Elegance, from the check of the branch: it requests changes when the check blocks (a new or
 * worsened error finding, the change over budget) or could not finish; otherwise it approves
 * with the warnings, the baseline, the patches left unapplied and the price against the plan.
 */
function eleganceVote(
  report: Verification['report'],
  settings: Pick<VerifiedVoteSettings, 'estimatedPoints' | 'unapplied'>,
): ReviewVote {
  const passed = report.verdict === 'pass' || report.verdict === 'warn';
  const fresh = report.findings.filter((finding) => finding.status !== 'baseline');
  const baseline = report.findings.length - fresh.length;
  const estimate = settings.estimatedPoints;
  const variance =
    estimate === null
      ? 'the plan gave no estimate'
      : estimate === 0
        ? `the plan estimated 0 points`
        : `${signed(Math.round(((report.cost.total - estimate) / Math.abs(estimate)) * 100))}% against the plan's ${estimate}`;
  return {
    vote: passed ? 'approve' : 'request-changes',
    reasons: [
      `aureus check: ${report.verdict}, ${report.cost.total} points of ${report.budget.block} (${variance}).`,
      ...(passed ? [] : report.reasons),
      `critic: ${fresh.length} new or worsened finding${fresh.length === 1 ? '' : 's'}, ${baseline} baseline.`,
      ...fresh.map(
        (finding) =>
          `${finding.severity} ${finding.ruleId}${finding.location === null ? '' : ` at ${finding.location.path}:${finding.location.startLine}`}: ${finding.message}`,
      ),
      settings.unapplied.length === 0
        ? 'reflexion: no verified patch left unapplied.'
        : `reflexion: ${settings.unapplied.length} verified patch${settings.unapplied.length === 1 ? '' : 'es'} left unapplied: ${settings.unapplied.map((patch) => `${patch.title} (${patch.path}:${patch.line})`).join('; ')}.`,
    ],
  };
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
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
