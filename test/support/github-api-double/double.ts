import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GITHUB_ACTIONS_BOT, type Identity, type Permissions } from './auth.js';
import { BeforeCalls } from './before-calls.js';
import { type Fault, FaultQueue } from './faults.js';
import { loadOperations } from './fixture.js';
import { tryGitText } from './git.js';
import { addWorkflowRun } from './handlers/actions.js';
import { serve } from './pipeline.js';
import { type Outcome, type RecordedRequest, Recorder } from './recording.js';
import { makeRouter } from './router.js';
import {
  type AppInfo,
  IdSequence,
  RepositoryState,
  recordEdit,
  repositoryKey,
  syntheticId,
  timestamp,
  type WorkflowRun,
  type World,
} from './state.js';
import { entryAt } from './tree-edit.js';
import {
  type CheckRunView,
  checkRunViews,
  type IssueCommentView,
  issueCommentViews,
  type PullRequestView,
  type ReactionView,
  type ReviewCommentView,
  type ReviewView,
  reactionViews,
  reviewCommentViews,
  reviewViews,
} from './views.js';

export interface GitHubApiDoubleOptions {
  /**
   * Check every answer against the operation's response schema and turn a mismatch into a 500
   * (recorded as `response-violation`), so a test cannot pass on a shape GitHub never sends.
   * On unless turned off.
   */
  readonly strictResponses?: boolean;
  /** The clock for timestamps; the real one unless given. */
  readonly now?: () => Date;
  /** Entries `git/get-tree` sends before it says `truncated: true` (GitHub: 100,000). */
  readonly maxTreeEntries?: number;
}

export type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

/** A person or bot, by login, with optional fixed id and type. */
export type IdentityInput = string | { login: string; id?: number; type?: Identity['type'] };

function identityOf(input: IdentityInput): Identity {
  if (typeof input === 'string') {
    return { login: input, id: syntheticId(input), type: input.endsWith('[bot]') ? 'Bot' : 'User' };
  }
  return {
    login: input.login,
    id: input.id ?? syntheticId(input.login),
    type: input.type ?? (input.login.endsWith('[bot]') ? 'Bot' : 'User'),
  };
}

/** A GitHub REST API on 127.0.0.1 for tests; see README.md in this folder. */
export class GitHubApiDouble {
  private readonly recorder = new Recorder();
  private readonly faults = new FaultQueue();
  private readonly beforeCalls = new BeforeCalls();

  private constructor(
    private readonly server: Server,
    private readonly world: World,
    private readonly route: ReturnType<typeof makeRouter>,
    private readonly strictResponses: boolean,
  ) {}

  /** Starts a double on a random port of 127.0.0.1. */
  static async start(options: GitHubApiDoubleOptions = {}): Promise<GitHubApiDouble> {
    const holder: { double?: GitHubApiDouble } = {};
    const server = createServer((request, response) => {
      if (holder.double === undefined) {
        response.writeHead(503).end();
        return;
      }
      holder.double.handle(request, response);
    });
    // Node closes a keep-alive connection idle for 5 s. A client that reuses its pooled socket
    // at that moment gets ECONNRESET, which a test doing seconds of git work between two
    // requests meets on a busy machine. Idle connections stay open instead; stop() closes them.
    server.keepAliveTimeout = 0;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const world: World = {
      repositories: new Map(),
      tokens: new Map(),
      apps: new Map(),
      installations: new Map(),
      ids: new IdSequence(),
      now: options.now ?? (() => new Date()),
      apiUrl: `http://127.0.0.1:${port}`,
      truncatePatches: false,
      maxTreeEntries: options.maxTreeEntries ?? 100_000,
    };
    const route = makeRouter(loadOperations());
    holder.double = new GitHubApiDouble(server, world, route, options.strictResponses ?? true);
    return holder.double;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const parts = {
      world: this.world,
      route: this.route,
      recorder: this.recorder,
      faults: this.faults,
      beforeCalls: this.beforeCalls,
      strictResponses: this.strictResponses,
    };
    serve(parts, request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  }

  /** `http://127.0.0.1:PORT`: Octokit's `baseUrl`. */
  get url(): string {
    return this.world.apiUrl;
  }

  /** Answer like GitHub past its diff limits: files without `patch`, with zero counts. */
  get truncatePatches(): boolean {
    return this.world.truncatePatches;
  }

  set truncatePatches(value: boolean) {
    this.world.truncatePatches = value;
  }

  get maxTreeEntries(): number {
    return this.world.maxTreeEntries;
  }

  set maxTreeEntries(value: number) {
    this.world.maxTreeEntries = value;
  }

  // ---- setup -------------------------------------------------------------------------------

  /**
   * Registers a token with fine-grained permissions. It acts as `github-actions[bot]` unless
   * `identity` says otherwise; `repositories` (`owner/repo`) limits what it can see.
   */
  addToken(
    token: string,
    permissions: Permissions,
    options: { identity?: IdentityInput; repositories?: readonly string[] } = {},
  ): void {
    const identity =
      options.identity === undefined ? GITHUB_ACTIONS_BOT : identityOf(options.identity);
    this.world.tokens.set(token, {
      token,
      permissions: { ...permissions },
      identity,
      ...(options.repositories === undefined
        ? {}
        : { repositories: new Set(options.repositories.map((name) => name.toLowerCase())) }),
    });
  }

  /**
   * Registers a repository; with `gitDir` (a work tree or `.git` folder) its branches, tags,
   * commits, trees and blobs are read from that real repository.
   */
  addRepository(options: {
    owner: string;
    repo: string;
    gitDir?: string;
    defaultBranch?: string;
    private?: boolean;
    id?: number;
    ownerType?: Identity['type'];
  }): void {
    const defaultBranch =
      options.defaultBranch ??
      (options.gitDir === undefined
        ? undefined
        : tryGitText(options.gitDir, ['symbolic-ref', '--short', 'HEAD'])?.trim()) ??
      'main';
    const ownerIdentity: Identity = {
      ...identityOf(options.owner),
      type: options.ownerType ?? 'Organization',
    };
    const info = {
      owner: options.owner,
      repo: options.repo,
      id: options.id ?? this.world.ids.take('repository'),
      private: options.private ?? true,
      defaultBranch,
      ownerIdentity,
      createdAt: timestamp(this.world.now()),
    };
    this.world.repositories.set(
      repositoryKey(options.owner, options.repo),
      new RepositoryState(info, options.gitDir),
    );
  }

  /**
   * Registers a pull request of a git-backed repository. `baseSha`/`headSha` may also be branch
   * names; `headRepo` (`owner/repo`) makes it a pull request from a fork.
   */
  addPullRequest(options: {
    owner: string;
    repo: string;
    number: number;
    baseSha: string;
    headSha: string;
    baseRef?: string;
    headRef?: string;
    headRepo?: string;
    title?: string;
    body?: string | null;
    user?: IdentityInput;
    state?: 'open' | 'closed';
    draft?: boolean;
    authorAssociation?: string;
    /** Merged as this commit (or branch): closed, and listed for it by pulls-of-a-commit. */
    mergedAs?: string;
  }): void {
    const repo = this.repository(options.owner, options.repo);
    if (repo.gitDir === undefined) {
      throw new Error(`addPullRequest: ${repo.fullName} was added without a gitDir`);
    }
    const baseSha = repo.resolveCommit(options.baseSha);
    const headSha = repo.resolveCommit(options.headSha);
    if (baseSha === undefined || headSha === undefined) {
      throw new Error(`addPullRequest: ${options.baseSha} or ${options.headSha} is not a commit`);
    }
    const mergeCommitSha =
      options.mergedAs === undefined ? null : repo.resolveCommit(options.mergedAs);
    if (mergeCommitSha === undefined)
      throw new Error(`addPullRequest: ${options.mergedAs} is not a commit`);
    const [headOwner = options.owner, headRepo = options.repo] = (options.headRepo ?? '').split(
      '/',
    );
    repo.pulls.set(options.number, {
      number: options.number,
      baseSha,
      headSha,
      baseRef: options.baseRef ?? repo.info.defaultBranch,
      headRef: options.headRef ?? `pr-${options.number}`,
      headOwner: options.headRepo === undefined ? options.owner : headOwner,
      headRepo: options.headRepo === undefined ? options.repo : headRepo,
      title: options.title ?? `Pull request #${options.number}`,
      body: options.body ?? null,
      user: identityOf(options.user ?? { login: 'octocat', id: 583231 }),
      state: mergeCommitSha === null ? (options.state ?? 'open') : 'closed',
      draft: options.draft ?? false,
      mergeCommitSha,
      authorAssociation:
        options.authorAssociation ?? (options.headRepo === undefined ? 'MEMBER' : 'CONTRIBUTOR'),
      createdAt: timestamp(this.world.now()),
    });
  }

  /** An issue `issues/get` serves; `editIssue` changes it later, as a person editing it would. */
  addIssue(options: {
    owner: string;
    repo: string;
    number: number;
    title: string;
    body: string | null;
    updatedAt: string;
    user?: IdentityInput;
    state?: 'open' | 'closed';
  }): void {
    this.repository(options.owner, options.repo).issues.set(options.number, {
      number: options.number,
      title: options.title,
      body: options.body,
      user: identityOf(options.user ?? { login: 'octocat', id: 583231 }),
      createdAt: options.updatedAt,
      updatedAt: options.updatedAt,
      state: options.state ?? 'open',
    });
  }

  editIssue(
    owner: string,
    repo: string,
    number: number,
    body: string,
    updatedAt: string,
    title?: string,
    editor?: IdentityInput,
  ): void {
    const issue = this.repository(owner, repo).issues.get(number);
    if (issue === undefined)
      throw new Error(`editIssue: ${owner}/${repo}#${number} was never added`);
    // GraphQL's edit history records the edit at `updatedAt`, by `editor` (the author unless given).
    if (body !== issue.body)
      recordEdit(issue, {
        editedAt: updatedAt,
        editor: editor === undefined ? issue.user : identityOf(editor),
        diff: body,
      });
    issue.body = body;
    issue.updatedAt = updatedAt;
    if (title !== undefined) issue.title = title;
  }

  /**
   * A review someone submitted on GitHub (in the web interface, not through the token under
   * test), listed by `pulls/list-reviews` after the earlier ones; returns its id.
   */
  addReview(options: {
    owner: string;
    repo: string;
    pullNumber: number;
    user: IdentityInput;
    state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
    commitId: string;
    body?: string;
  }): number {
    const repo = this.repository(options.owner, options.repo);
    if (!repo.pulls.has(options.pullNumber))
      throw new Error(`addReview: ${repo.fullName} has no pull request #${options.pullNumber}`);
    const id = this.world.ids.take('review');
    repo.reviews.push({
      id,
      pullNumber: options.pullNumber,
      user: identityOf(options.user),
      body: options.body ?? '',
      state: options.state,
      commitId: options.commitId,
      submittedAt: timestamp(this.world.now()),
    });
    return id;
  }

  /**
   * A comment someone wrote on an issue on GitHub (not through the token under test), listed by
   * `issues/list-comments` after the earlier ones; returns its id.
   */
  addIssueComment(options: {
    owner: string;
    repo: string;
    issueNumber: number;
    user: IdentityInput;
    body: string;
    /** A fixed id, below the range the double hands out (a run id derived from it is a constant). */
    id?: number;
  }): number {
    const repo = this.repository(options.owner, options.repo);
    if (options.id !== undefined && (options.id >= 1_000_001 || repo.issueComments.has(options.id)))
      throw new Error(`addIssueComment: id ${options.id} is taken or in the handed-out range`);
    const id = options.id ?? this.world.ids.take('issueComment');
    const now = timestamp(this.world.now());
    repo.issueComments.set(id, {
      id,
      issueNumber: options.issueNumber,
      body: options.body,
      user: identityOf(options.user),
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** A label someone added to an issue on GitHub, listed by `issues/list-events`; returns its id. */
  addIssueEvent(options: {
    owner: string;
    repo: string;
    issueNumber: number;
    actor: IdentityInput;
    label: string;
  }): number {
    const repo = this.repository(options.owner, options.repo);
    const id = this.world.ids.take('issueEvent');
    repo.issueEvents.push({
      id,
      issueNumber: options.issueNumber,
      event: 'labeled',
      label: options.label,
      actor: identityOf(options.actor),
      createdAt: timestamp(this.world.now()),
    });
    return id;
  }

  /**
   * A person's change of an issue's title on GitHub: the title and a `renamed` event, now or at
   * the time given (an edit made before the test's other events).
   */
  renameIssue(
    owner: string,
    repo: string,
    number: number,
    title: string,
    actor: IdentityInput,
    at?: string,
  ): void {
    const repository = this.repository(owner, repo);
    const issue = repository.issues.get(number);
    if (issue === undefined)
      throw new Error(`renameIssue: ${owner}/${repo}#${number} was never added`);
    const now = at ?? timestamp(this.world.now());
    repository.issueEvents.push({
      id: this.world.ids.take('issueEvent'),
      issueNumber: number,
      event: 'renamed',
      from: issue.title,
      to: title,
      actor: identityOf(actor),
      createdAt: now,
    });
    issue.title = title;
    if (now > issue.updatedAt) issue.updatedAt = now;
  }

  /**
   * A ref pushed to the repository after it was added (the double reads branches and tags from
   * git once): `git/get-ref` and `git/list-matching-refs` then list it.
   */
  setRef(owner: string, repo: string, name: string, sha: string): void {
    if (!name.startsWith('refs/')) throw new Error(`setRef: ${name} is not a full ref name`);
    this.repository(owner, repo).refs.set(name, sha);
  }

  /** A person's later edit of an issue comment, made on GitHub. */
  editIssueComment(
    owner: string,
    repo: string,
    id: number,
    body: string,
    editor?: IdentityInput,
  ): void {
    const comment = this.repository(owner, repo).issueComments.get(id);
    if (comment === undefined) throw new Error(`editIssueComment: no comment ${id}`);
    comment.body = body;
    // GitHub moves updated_at on an edit; timestamps are whole seconds, so an edit in the same
    // second as the comment still reads as later.
    const now = timestamp(this.world.now());
    comment.updatedAt =
      now > comment.createdAt ? now : timestamp(new Date(Date.parse(comment.createdAt) + 1000));
    recordEdit(comment, {
      editedAt: comment.updatedAt,
      editor: editor === undefined ? comment.user : identityOf(editor),
      diff: body,
    });
  }

  /** A person's deletion of an issue comment, made on GitHub: it is read as 404 from then on. */
  deleteIssueComment(owner: string, repo: string, id: number): void {
    if (!this.repository(owner, repo).issueComments.delete(id))
      throw new Error(`deleteIssueComment: no comment ${id}`);
  }

  /**
   * A repository ruleset's pull-request rule on `branch`, as `repos/get-branch-rules` lists it
   * (beside the rules already there): how many approvals it requires and whether the most recent
   * push must be approved by someone other than the one who pushed it.
   */
  addPullRequestRule(
    owner: string,
    repo: string,
    branch: string,
    rule: {
      requiredApprovingReviewCount: number;
      requireLastPushApproval: boolean;
      rulesetId?: number;
    },
  ): void {
    const state = this.repository(owner, repo);
    const rules = state.branchRules.get(branch) ?? [];
    state.branchRules.set(branch, [
      ...rules,
      {
        type: 'pull_request',
        parameters: {
          dismiss_stale_reviews_on_push: false,
          require_code_owner_review: false,
          require_last_push_approval: rule.requireLastPushApproval,
          required_approving_review_count: rule.requiredApprovingReviewCount,
          required_review_thread_resolution: false,
        },
        ruleset_source_type: 'Repository',
        ruleset_source: `${owner}/${repo}`,
        ruleset_id: rule.rulesetId ?? rules.length + 1,
      },
    ]);
  }

  /** A collaborator's role, as `repos/get-collaborator-permission-level` reports it. */
  setPermission(owner: string, repo: string, user: IdentityInput, role: Role): void {
    const identity = identityOf(user);
    this.repository(owner, repo).collaborators.set(identity.login.toLowerCase(), {
      identity,
      role,
    });
  }

  /** A GitHub App; a JWT whose `iss` is its id (or client id) authenticates as it. */
  addApp(options: {
    id: number;
    slug: string;
    name?: string;
    owner?: IdentityInput;
    clientId?: string;
    permissions?: Permissions;
    events?: readonly string[];
  }): void {
    const app: AppInfo = {
      id: options.id,
      slug: options.slug,
      name: options.name ?? options.slug,
      owner: identityOf(options.owner ?? { login: options.slug, type: 'Organization' }),
      clientId: options.clientId ?? `Iv1.${options.slug}`,
      permissions: { ...options.permissions },
      events: [...(options.events ?? [])],
      createdAt: timestamp(this.world.now()),
    };
    this.world.apps.set(app.id, app);
  }

  /** An installation of an app on an account, optionally on some of its repositories only. */
  addInstallation(options: {
    id: number;
    appId: number;
    account: IdentityInput;
    permissions: Permissions;
    repositories?: readonly string[];
    events?: readonly string[];
  }): void {
    const account = identityOf(options.account);
    const owner = account.login.toLowerCase();
    this.world.installations.set(options.id, {
      id: options.id,
      appId: options.appId,
      account,
      permissions: { ...options.permissions },
      repositories:
        options.repositories === undefined
          ? undefined
          : new Set(
              options.repositories.map((name) =>
                (name.includes('/') ? name : `${owner}/${name}`).toLowerCase(),
              ),
            ),
      events: [...(options.events ?? [])],
      createdAt: timestamp(this.world.now()),
    });
  }

  /**
   * Makes the next call(s) to an operation fail with this status, headers and body, then
   * answer normally again; see `secondaryRateLimit()`.
   */
  failNext(operationId: string, fault: Fault): void {
    const known =
      operationId === 'graphql' ||
      loadOperations().some((operation) => operation.operationId === operationId);
    if (!known) {
      throw new Error(`failNext: ${operationId} is not an operation of the fixture`);
    }
    this.faults.add(operationId, fault);
  }

  /**
   * Runs `run` (another client's requests, say) before answering the `nth` next call to an
   * operation, then answers it: a race placed exactly, with no timing.
   */
  beforeCall(operationId: string, nth: number, run: () => Promise<void>): void {
    const known =
      operationId === 'graphql' ||
      loadOperations().some((operation) => operation.operationId === operationId);
    if (!known) {
      throw new Error(`beforeCall: ${operationId} is not an operation of the fixture`);
    }
    this.beforeCalls.add(operationId, nth, run);
  }

  // ---- recording ---------------------------------------------------------------------------

  requests(): RecordedRequest[] {
    return this.recorder.all();
  }

  callsTo(operationId: string): RecordedRequest[] {
    return this.recorder.all().filter((request) => request.operationId === operationId);
  }

  withOutcome(outcome: Outcome): RecordedRequest[] {
    return this.recorder.withOutcome(outcome);
  }

  invalidRequests(): RecordedRequest[] {
    return this.recorder.withOutcome('invalid');
  }

  forbiddenRequests(): RecordedRequest[] {
    return this.recorder.withOutcome('forbidden');
  }

  unexpectedRequests(): RecordedRequest[] {
    return this.recorder.withOutcome('unexpected');
  }

  responseViolations(): RecordedRequest[] {
    return this.recorder.withOutcome('response-violation');
  }

  /** Forgets recorded requests and queued faults; repositories, tokens and their state stay. */
  reset(): void {
    this.recorder.clear();
    this.faults.clear();
    this.beforeCalls.clear();
  }

  // ---- state, for assertions ---------------------------------------------------------------

  issueComments(owner: string, repo: string, issueNumber?: number): IssueCommentView[] {
    return issueCommentViews(this.repository(owner, repo), issueNumber);
  }

  checkRuns(owner: string, repo: string): CheckRunView[] {
    return checkRunViews(this.repository(owner, repo));
  }

  reviews(owner: string, repo: string, pullNumber?: number): ReviewView[] {
    return reviewViews(this.repository(owner, repo), pullNumber);
  }

  reviewComments(owner: string, repo: string, pullNumber?: number): ReviewCommentView[] {
    return reviewCommentViews(this.repository(owner, repo), pullNumber);
  }

  /** A workflow run dispatched before the test (by someone else, elsewhere), for listings. */
  addWorkflowRun(
    owner: string,
    repo: string,
    run: {
      workflow: string;
      createdAt: string;
      event?: string;
      headBranch?: string;
      actor?: Identity;
      inputs?: Readonly<Record<string, string>>;
    },
  ): number {
    const state = this.repository(owner, repo);
    return addWorkflowRun(state, {
      workflow: run.workflow,
      event: run.event ?? 'workflow_dispatch',
      headBranch: run.headBranch ?? state.info.defaultBranch,
      headSha: '0'.repeat(40),
      createdAt: run.createdAt,
      inputs: run.inputs ?? {},
      ...(run.actor === undefined ? {} : { actor: run.actor }),
    }).id;
  }

  /** A workflow run's end, as GitHub records it (`status: completed`, `updated_at`), now or at `at`. */
  completeWorkflowRun(owner: string, repo: string, id: number, at?: string): void {
    const run = this.repository(owner, repo).workflowRuns.find((each) => each.id === id);
    if (run === undefined) throw new Error(`completeWorkflowRun: no workflow run ${id}`);
    run.completedAt = at ?? timestamp(this.world.now());
  }

  /** Workflow runs of a repository, oldest first, with the inputs they were dispatched with. */
  workflowRuns(owner: string, repo: string): readonly WorkflowRun[] {
    return [...this.repository(owner, repo).workflowRuns];
  }

  reactions(owner: string, repo: string): ReactionView[] {
    return reactionViews(this.repository(owner, repo));
  }

  /** The pull requests of a repository, those opened through the API included. */
  pullRequests(owner: string, repo: string): PullRequestView[] {
    return [...this.repository(owner, repo).pulls.values()].map((pull) => ({
      number: pull.number,
      title: pull.title,
      body: pull.body,
      draft: pull.draft,
      baseRef: pull.baseRef,
      headRef: pull.headRef,
      headSha: pull.headSha,
      user: pull.user.login,
    }));
  }

  /** Where a ref points now (`main`, `heads/main` or `refs/heads/main`), API updates included. */
  ref(owner: string, repo: string, name: string): string | undefined {
    const refs = this.repository(owner, repo).refs;
    return refs.get(name) ?? refs.get(`refs/${name}`) ?? refs.get(`refs/heads/${name}`);
  }

  /** A file's bytes at a branch, tag or commit, including commits made through the API. */
  fileAt(owner: string, repo: string, ref: string, path: string): Buffer | undefined {
    const state = this.repository(owner, repo);
    const sha = state.resolveCommit(ref);
    const tree = sha === undefined ? undefined : state.store.readCommit(sha)?.tree;
    const entry = tree === undefined ? undefined : entryAt(state.store, tree, path);
    return entry?.type === 'blob' ? state.store.readBlob(entry.sha) : undefined;
  }

  /** Stops listening and drops kept-alive connections. */
  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => (error === undefined ? resolve() : reject(error)));
      this.server.closeAllConnections();
    });
  }

  private repository(owner: string, repo: string): RepositoryState {
    const state = this.world.repositories.get(repositoryKey(owner, repo));
    if (state === undefined) throw new Error(`${owner}/${repo} was never added to the double`);
    return state;
  }
}
