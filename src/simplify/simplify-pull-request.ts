import { counted } from '../critic/wording.js';
import { reflexionTrigger } from '../gate/suggest-alternatives.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { isPermissionDenied } from '../github/request-error.js';
import {
  commitMessageOf,
  isSimplifyCommit,
  type PushOutcome,
  pushSimplifyCommit,
  simplifyCommitMessage,
} from '../github/simplify-commit.js';
import { postSimplifyReview, simplifyReviewExists } from '../github/simplify-review.js';
import type { Change } from '../model/change.js';
import type { Policy } from '../model/policy.js';
import type { Report } from '../model/report.js';
import { gitBlobId } from '../reflexion/edit-forms.js';
import { addedLineNumbers, planDelivery } from './delivery-plan.js';
import { appendDiffs, removedLines, reviewBody } from './delivery-text.js';
import type { SimplifyResult } from './simplify-repository.js';
import type { VerifiedPatch } from './verify-proposal.js';

export interface PullRequestToSimplify {
  readonly client: GitHubClient;
  readonly repository: RepositoryCoordinates;
  readonly number: number;
  readonly headSha: string;
  readonly headRef: string;
  /** A fork's branch is never written to. */
  readonly fromFork: boolean;
  /** Whether the client may push to the branch at all; undefined when only trying tells. */
  readonly pushRefusal?: string | undefined;
  /**
   * A git work tree with the files the simplification reads (the head, or a merge of it), made
   * only once reflexion is due and not delivered yet; a string says why there is none.
   */
  readonly workTree: () => Promise<WorkTree | string>;
  /** The pull request's change (merge base → head) and how the check judged it. */
  readonly change: Change;
  readonly report: Report;
  /** The base's policy, the one that judged the change. */
  readonly policy: Policy;
  /** Runs the passes and verification (this thread by default; the App uses a worker). */
  readonly simplify?: SimplifyRun;
  /** Someone asked for it (`/aureus simplify`): it runs even where the triggers say it is not due. */
  readonly requested?: boolean;
}

/** What happened, one sentence per line, and whether a review now carries the patches. */
export interface SimplifyDelivery {
  readonly lines: readonly string[];
  readonly reviewed: boolean;
}

export type SimplifyRun = (
  root: string,
  policy: Policy,
  only: ReadonlySet<string>,
) => Promise<SimplifyResult>;

/**
 * The passes, and TypeScript with ts-morph under them, load when reflexion is due: every other
 * check (most of them, and every run of the Action) never pays the ~0.4 s they take to load.
 */
const simplifyHere: SimplifyRun = async (root, policy, only) => {
  const [{ simplifyRepository }, { SIMPLIFICATION_PASSES }] = await Promise.all([
    import('./simplify-repository.js'),
    import('../reflexion/pass-catalog.js'),
  ]);
  return simplifyRepository(root, policy, SIMPLIFICATION_PASSES, {
    changedOnly: false,
    only,
    apply: false,
    test: false,
  });
};

export interface WorkTree {
  readonly root: string;
  /** Blob id and mode of every file at the head: a patch is delivered only on the head's text. */
  readonly headFiles: ReadonlyMap<string, { readonly blobSha: string; readonly mode: string }>;
  /** Removes the work tree when it was made for this run. */
  readonly dispose: () => Promise<void>;
}

/**
 * Reflexion on a pull request, when the policy's triggers say it is due: the deterministic
 * passes over the pull request's files, every patch verified as for `aureus simplify`, then
 * delivered once per head: small patches on added lines as suggestions, the others in one
 * `aureus: simplify` commit on a same-repository branch when simplification.auto_commit allows
 * it, else as diffs in the review. AUREUS's own commit is judged but never simplified again.
 */
export async function simplifyPullRequest(pull: PullRequestToSimplify): Promise<SimplifyDelivery> {
  const { policy, client, repository } = pull;
  const settings = policy.simplification;
  const said = (line: string): SimplifyDelivery => ({ lines: [line], reviewed: false });
  if (!settings.enabled || (!settings.suggestions && !settings.auto_commit))
    return said(
      'Reflexion delivers nothing here: simplification.enabled, .suggestions and .auto_commit are off.',
    );
  const why =
    reflexionDue(pull.report, policy) ??
    (pull.requested === true ? 'it was asked for with `/aureus simplify`' : undefined);
  if (why === undefined)
    return said('Reflexion is not due for this change (simplification.triggers).');
  if (isSimplifyCommit(await commitMessageOf(client, repository, pull.headSha)))
    return said(
      "The head is AUREUS's own simplification commit: it is judged, never simplified again.",
    );
  if (await simplifyReviewExists(client, repository, pull.number, pull.headSha))
    return said('The simplifications for this head were delivered already, in its AUREUS review.');

  const workTree = await pull.workTree();
  if (typeof workTree === 'string') return said(`Reflexion is due (${why}), but ${workTree}`);
  try {
    return await deliver(pull, why, workTree);
  } finally {
    await workTree.dispose();
  }
}

async function deliver(
  pull: PullRequestToSimplify,
  why: string,
  workTree: WorkTree,
): Promise<SimplifyDelivery> {
  const { policy, client, repository } = pull;
  const settings = policy.simplification;
  const scope = new Set(
    pull.change.files.filter((file) => file.head?.kind === 'text').map((file) => file.path),
  );
  const result = await (pull.simplify ?? simplifyHere)(workTree.root, policy, scope);
  const headFiles = workTree.headFiles;
  const log = [
    `Reflexion ran because ${why}: ${counted(result.verified.length, 'patch', 'patches')} verified, ${result.dropped.length} dropped, ${result.deferred.length} left for the next run.`,
  ];
  if (result.skipped.length > 0)
    log.push(
      `Not read (no patch for them): ${result.skipped.map(({ path, reason }) => `${path} (${reason})`).join('; ')}.`,
    );
  for (const entry of result.untracedEntries) log.push(`Public API kept whole: ${entry}`);
  const onHead = result.applied.kept.filter((patch) => matchesHead(patch, headFiles));
  if (onHead.length < result.applied.kept.length)
    log.push(
      `${counted(result.applied.kept.length - onHead.length, 'patch', 'patches')} made on files that differ at the head: not delivered.`,
    );
  if (onHead.length === 0 && result.findings.length === 0) return { lines: log, reviewed: false };

  const commitAllowed = settings.auto_commit && !pull.fromFork && pull.pushRefusal === undefined;
  const plan = planDelivery(onHead, addedLinesOf(pull.change), {
    suggestions: settings.suggestions,
    commit: commitAllowed,
  });
  const commit = await commitPatches(pull, headFiles, plan.committed);
  const committed = commit.kind === 'pushed' ? plan.committed : [];
  const listed = [...plan.listed, ...(commit.kind === 'pushed' ? [] : plan.committed)];
  const suggested = plan.suggestions.map((suggestion) => suggestion.patch);
  const body = reviewBody({
    headSha: pull.headSha,
    why,
    suggested,
    committed,
    commitLine: commit.line,
    listed,
    listedLine: listedLine(settings.auto_commit, pull),
    findings: result.findings,
  });
  const posted = await postSimplifyReview(client, repository, {
    pullNumber: pull.number,
    headSha: pull.headSha,
    body,
    comments: plan.suggestions.map((suggestion) => suggestion.comment),
    bodyWithoutComments: appendDiffs(body, suggested),
  });
  log.push(
    `Posted a review: ${counted(suggested.length, 'suggestion')}${posted.inline ? '' : ' (as diffs: GitHub did not take them on the lines)'}, ${counted(listed.length, 'patch', 'patches')} listed.`,
  );
  if (commit.line !== undefined) log.push(commit.line);
  return { lines: log, reviewed: true };
}

/**
 * Why reflexion is due on a change (simplification.triggers), or undefined. The third trigger,
 * the core near its LOC target, is the loc_budget rule's finding.
 */
export function reflexionDue(report: Report, policy: Policy): string | undefined {
  const byCost = reflexionTrigger(report.cost, policy);
  if (byCost !== undefined) return byCost;
  const nearBudget = report.findings.find((finding) => finding.ruleId === 'loc_budget');
  return nearBudget === undefined ? undefined : nearBudget.message;
}

function matchesHead(patch: VerifiedPatch, headFiles: WorkTree['headFiles']): boolean {
  return patch.proposal.edits.every(
    (edit) => headFiles.get(edit.path)?.blobSha === gitBlobId(edit.before),
  );
}

function addedLinesOf(change: Change): (path: string) => ReadonlySet<number> {
  const added = new Map<string, Set<number>>();
  for (const file of change.files) {
    const head = file.head?.text;
    if (head !== undefined) added.set(file.path, addedLineNumbers(file.base?.text ?? '', head));
  }
  return (path) => added.get(path) ?? new Set();
}

type CommitResult = {
  readonly kind: PushOutcome['kind'] | 'none' | 'refused';
  readonly line?: string;
};

async function commitPatches(
  pull: PullRequestToSimplify,
  headFiles: WorkTree['headFiles'],
  patches: readonly VerifiedPatch[],
): Promise<CommitResult> {
  if (patches.length === 0) return { kind: 'none' };
  const removed = removedLines(patches);
  const files = patches.flatMap((patch) =>
    patch.proposal.edits.map((edit) => ({
      path: edit.path,
      text: edit.after,
      mode: headFiles.get(edit.path)?.mode ?? '100644',
    })),
  );
  const message = simplifyCommitMessage(
    removed,
    patches.map((patch) => patch.proposal.title),
    pull.headSha,
  );
  try {
    const outcome = await pushSimplifyCommit(pull.client, pull.repository, {
      branch: pull.headRef,
      headSha: pull.headSha,
      files,
      message,
    });
    if (outcome.kind === 'pushed')
      return {
        kind: 'pushed',
        line: `Committed ${counted(patches.length, 'patch', 'patches')} as ${outcome.sha.slice(0, 7)} "aureus: simplify (−${removed} lines)" on ${pull.headRef}.`,
      };
    return {
      kind: 'branch-moved',
      line: `No commit: ${pull.headRef} moved on since ${pull.headSha.slice(0, 7)}; the patches are listed instead.`,
    };
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    return {
      kind: 'refused',
      line: 'No commit: the token may not push to this branch (it needs `contents: write`); the patches are listed instead.',
    };
  }
}

function listedLine(autoCommit: boolean, pull: PullRequestToSimplify): string {
  const why = !autoCommit
    ? 'simplification.auto_commit is off'
    : pull.fromFork
      ? 'the branch is in a fork, which AUREUS never pushes to'
      : (pull.pushRefusal ?? 'they could not be committed');
  return `Not committed, because ${why}: apply them with \`aureus simplify --apply\` on the branch.`;
}
