import type { Identity, Permissions, TokenGrant } from './auth.js';
import { gitText, nulRecords } from './git.js';
import { ObjectStore } from './object-store.js';

export interface IssueComment {
  readonly id: number;
  readonly issueNumber: number;
  body: string;
  readonly user: Identity;
  readonly createdAt: string;
  updatedAt: string;
  /** Its edits, oldest first, as GraphQL's `userContentEdits` and `lastEditedAt` give them. */
  edits?: ContentEdit[];
}

/**
 * One edit of an issue's or a comment's body: when, by whom, and the text it left (GraphQL's
 * `UserContentEdit`; REST records none of it for an issue body).
 */
export interface ContentEdit {
  readonly editedAt: string;
  readonly editor: Identity;
  readonly diff: string;
}

/** An issue as `issues/get` reads it; tests edit `body` and `updatedAt` to model a later edit. */
export interface Issue {
  readonly number: number;
  title: string;
  body: string | null;
  readonly user: Identity;
  readonly createdAt: string;
  updatedAt: string;
  /** Edits of its body, oldest first (GraphQL's `userContentEdits`). */
  edits?: ContentEdit[];
  /** Absent: open (issues added by tests); `issues/update` may close one. */
  state?: 'open' | 'closed';
}

/** A label added to an issue, as `issues/list-events` lists it (`labeled`, with who added it). */
/** An issue event: a label added, or the title changed (GitHub's `renamed`, with both titles). */
export type IssueEvent = {
  readonly id: number;
  readonly issueNumber: number;
  readonly actor: Identity;
  readonly createdAt: string;
} & (
  | { readonly event: 'labeled'; readonly label: string }
  | { readonly event: 'renamed'; readonly from: string; readonly to: string }
);

export interface Reaction {
  readonly id: number;
  readonly commentId: number;
  readonly content: string;
  readonly user: Identity;
  readonly createdAt: string;
}

export interface Annotation {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly start_column?: number;
  readonly end_column?: number;
  readonly annotation_level: 'notice' | 'warning' | 'failure';
  readonly message: string;
  readonly title?: string;
  readonly raw_details?: string;
}

export interface CheckRun {
  readonly id: number;
  name: string;
  readonly headSha: string;
  status: string;
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  detailsUrl: string | null;
  externalId: string;
  readonly output: {
    title: string | null;
    summary: string | null;
    text: string | null;
    readonly annotations: Annotation[];
    readonly images: { alt: string; image_url: string; caption?: string }[];
  };
  readonly suiteId: number;
  readonly app: AppInfo;
  /** How many create/update requests carried annotations, for "batches of 50" assertions. */
  annotationBatches: number;
}

export interface Review {
  readonly id: number;
  readonly pullNumber: number;
  readonly user: Identity;
  readonly body: string;
  /** `DISMISSED`: how GitHub lists a review a maintainer dismissed. */
  readonly state: 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED' | 'DISMISSED';
  readonly commitId: string;
  readonly submittedAt: string | undefined;
}

export interface ReviewComment {
  readonly id: number;
  readonly pullNumber: number;
  readonly reviewId: number | null;
  readonly user: Identity;
  readonly body: string;
  readonly path: string;
  readonly commitId: string;
  readonly line: number | null;
  readonly side: 'LEFT' | 'RIGHT' | null;
  readonly startLine: number | null;
  readonly startSide: 'LEFT' | 'RIGHT' | null;
  readonly position: number | null;
  readonly subjectType: 'line' | 'file';
  readonly inReplyTo: number | undefined;
  readonly diffHunk: string;
  readonly createdAt: string;
}

export interface PullRequest {
  readonly number: number;
  readonly baseSha: string;
  readonly headSha: string;
  readonly baseRef: string;
  readonly headRef: string;
  /** `owner/repo` of the head; differs from the base for a pull request from a fork. */
  readonly headOwner: string;
  readonly headRepo: string;
  readonly title: string;
  readonly body: string | null;
  readonly user: Identity;
  readonly state: 'open' | 'closed';
  readonly draft: boolean;
  readonly authorAssociation: string;
  readonly createdAt: string;
  /** The commit it was merged as (closed), or null: not merged. */
  readonly mergeCommitSha: string | null;
}

export interface AppInfo {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly owner: Identity;
  readonly clientId: string;
  readonly permissions: Permissions;
  readonly events: readonly string[];
  readonly createdAt: string;
}

export interface Installation {
  readonly id: number;
  readonly appId: number;
  readonly account: Identity;
  readonly permissions: Permissions;
  /** `owner/repo` (lower case); undefined means every repository of the account. */
  readonly repositories: ReadonlySet<string> | undefined;
  readonly events: readonly string[];
  readonly createdAt: string;
}

export interface WorkflowRun {
  readonly id: number;
  /** The workflow's file name under .github/workflows/. */
  readonly workflow: string;
  readonly event: string;
  readonly headBranch: string;
  readonly headSha: string;
  readonly createdAt: string;
  readonly inputs: Readonly<Record<string, string>>;
  /** Who started it: the dispatching token's identity (GitHub's `actor`). */
  readonly actor?: Identity;
  /** When it ended (GitHub's `status: completed` and `updated_at`); queued until then. */
  completedAt?: string;
}

export interface RepositoryInfo {
  readonly owner: string;
  readonly repo: string;
  readonly id: number;
  readonly private: boolean;
  readonly defaultBranch: string;
  readonly ownerIdentity: Identity;
  readonly createdAt: string;
}

/** Everything the double knows about one `owner/repo`. */
export class RepositoryState {
  readonly store: ObjectStore;
  /** Fully qualified ref name (`refs/heads/main`) to object id. */
  readonly refs = new Map<string, string>();
  readonly issues = new Map<number, Issue>();
  readonly issueComments = new Map<number, IssueComment>();
  readonly reactions: Reaction[] = [];
  readonly issueEvents: IssueEvent[] = [];
  readonly checkRuns = new Map<number, CheckRun>();
  readonly checkSuites = new Map<string, number>();
  readonly reviews: Review[] = [];
  readonly reviewComments = new Map<number, ReviewComment>();
  readonly pulls = new Map<number, PullRequest>();
  /** Collaborator login (lower case) to role name (`admin`, `maintain`, `write`, `triage`, `read`). */
  readonly collaborators = new Map<string, { identity: Identity; role: string }>();
  /** Workflow runs, oldest first: those dispatched through the double and those a test added. */
  readonly workflowRuns: WorkflowRun[] = [];
  /** Branch name to the rules its active rulesets apply, as `repos/get-branch-rules` lists them. */
  readonly branchRules = new Map<string, readonly Record<string, unknown>[]>();

  constructor(
    readonly info: RepositoryInfo,
    readonly gitDir: string | undefined,
  ) {
    this.store = new ObjectStore(gitDir);
    if (gitDir !== undefined) this.loadRefs(gitDir);
  }

  private loadRefs(gitDir: string): void {
    const text = gitText(gitDir, [
      'for-each-ref',
      '--format=%(refname)%00%(objectname)%00',
      'refs/heads',
      'refs/tags',
    ]);
    const fields = nulRecords(text.replaceAll('\n', ''));
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const name = fields[i];
      const sha = fields[i + 1];
      if (name !== undefined && sha !== undefined) this.refs.set(name, sha);
    }
  }

  get fullName(): string {
    return `${this.info.owner}/${this.info.repo}`;
  }

  /**
   * A branch, tag, fully qualified ref or object id, to an object id; what GitHub accepts as
   * `ref` in `?ref=`, `commits/{ref}` and `compare/{base}...{head}`.
   */
  resolve(ref: string): string | undefined {
    const candidates = [ref, `refs/heads/${ref}`, `refs/tags/${ref}`, `refs/${ref}`];
    for (const name of candidates) {
      const sha = this.refs.get(name);
      if (sha !== undefined) return sha;
    }
    if (this.store.typeOf(ref) !== undefined) return ref;
    return undefined;
  }

  /** Resolves like `resolve`, then peels an annotated tag to its commit. */
  resolveCommit(ref: string): string | undefined {
    const sha = this.resolve(ref);
    if (sha === undefined) return undefined;
    const type = this.store.typeOf(sha);
    if (type === 'commit') return sha;
    if (type === 'tag' && this.gitDir !== undefined) {
      return gitText(this.gitDir, ['rev-parse', `${sha}^{commit}`]).trim();
    }
    return undefined;
  }
}

const ID_BASES = {
  issueComment: 1_000_001,
  reviewComment: 2_000_001,
  review: 3_000_001,
  checkRun: 4_000_001,
  checkSuite: 5_000_001,
  reaction: 6_000_001,
  issueEvent: 8_000_001,
  repository: 700_001,
} as const;

/**
 * Ids as GitHub hands them out: increasing, and from disjoint ranges per kind of object, so
 * code that passes a check run id where a comment id belongs gets a 404 rather than luck.
 */
export class IdSequence {
  private readonly next = new Map<keyof typeof ID_BASES, number>();

  take(kind: keyof typeof ID_BASES): number {
    const id = this.next.get(kind) ?? ID_BASES[kind];
    this.next.set(kind, id + 1);
    return id;
  }
}

/** The bot account an app acts as, with its JWT or its installation tokens. */
export function botIdentityOf(app: AppInfo): Identity {
  return { login: `${app.slug}[bot]`, id: app.id + 1_000_000, type: 'Bot' };
}

/** The whole in-memory GitHub the handlers read and change. */
export interface World {
  readonly repositories: Map<string, RepositoryState>;
  readonly tokens: Map<string, TokenGrant>;
  readonly apps: Map<number, AppInfo>;
  readonly installations: Map<number, Installation>;
  readonly ids: IdSequence;
  readonly now: () => Date;
  readonly apiUrl: string;
  truncatePatches: boolean;
  maxTreeEntries: number;
}

export function repositoryKey(owner: string, repo: string): string {
  return `${owner}/${repo}`.toLowerCase();
}

/**
 * A stable made-up id for an account or object the test did not give one: the same name gets
 * the same id in every run, so snapshots and assertions can rely on it.
 */
export function syntheticId(name: string): number {
  let hash = 7;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 90_000_000;
  return 10_000_000 + hash;
}

/** GitHub's timestamps: ISO 8601, UTC, whole seconds. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Records an edit of an issue's or a comment's body, as GitHub keeps its edit history. */
export function recordEdit(
  target: { edits?: ContentEdit[]; body: string | null },
  edit: ContentEdit,
): void {
  target.edits = [...(target.edits ?? []), edit];
}
