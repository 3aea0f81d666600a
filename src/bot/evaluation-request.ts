import type { AppIdentity } from './app-identity.js';
import type { AppLog } from './app-log.js';
import type { PendingApproval } from './budget-approval.js';
import type { AppRepository, JudgedChange } from './judged-change.js';

export interface EvaluationRequest {
  readonly repository: AppRepository;
  /** The commit the check run belongs to: the pull request's head, or the queue's commit. */
  readonly headSha: string;
  readonly judged: JudgedChange;
  /**
   * `event`: a head that already has a concluded AUREUS check is left alone (a redelivery, a
   * reopened pull request). `rerun`: judged again in a new check run (`/aureus check`, the
   * Re-run button).
   */
  readonly trigger: 'event' | 'rerun';
  /** `pull_request.synchronize`, `issue_comment.created`…: with the head, the ledger's key. */
  readonly event: string;
  readonly deliveryId: string;
  /** A maintainer's `/aureus approve-budget` for `headSha`, checked by the command handler. */
  readonly approval?: PendingApproval;
  /**
   * A maintainer's or admin's `/aureus approve-policy` for `headSha`, their live permission
   * checked by the command handler.
   */
  readonly policyApproval?: PendingApproval;
  /**
   * A writer's `/aureus simplify`: reflexion follows the check whether or not the policy's
   * triggers say it is due, and the pull request is told what came of it.
   */
  readonly simplifyRequested?: boolean;
}

export interface AppServices {
  readonly identity: AppIdentity;
  readonly checkName: string;
  /** Caches (content-addressed, shared by every repository) and the ledgers. */
  readonly dataDir: string;
  readonly toolVersion: string;
  readonly log: AppLog;
}
