import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * Who may run `/aureus` commands is decided from the person's live role on the repository at
 * trigger time, never from the webhook's `author_association`, a name or a label (THREATS rule 5,
 * rows 5 and 6).
 *
 * GitHub's permission endpoint takes a login, and logins change hands: a renamed account's old
 * login can be taken by someone else. The account is named by its numeric id; its login (from
 * the payload) is only the key of the request, and the answer counts only if the `user.id`
 * GitHub returns is that id. (`GET /user/{account_id}` would give the current login first, but
 * AUREUS's OpenAPI fixture does not hold that operation; the id check makes it unnecessary for
 * safety: a stale login is refused, never promoted.)
 */
export type RepositoryRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export type LivePermission =
  | { readonly verified: true; readonly role: RepositoryRole }
  /** The role could not be tied to the account: treated as no role at all. */
  | { readonly verified: false; readonly role: 'none'; readonly reason: string };

export interface Account {
  readonly id: number;
  readonly login: string;
}

const ROLES: readonly RepositoryRole[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
/** What the legacy `permission` field means for an organisation's custom role built on it. */
const BASE_PERMISSIONS: readonly RepositoryRole[] = ['admin', 'write', 'read', 'none'];
const COMMAND_ROLES: ReadonlySet<RepositoryRole> = new Set(['admin', 'maintain', 'write']);

/** Only write, maintain and admin run commands: triage can label but not approve budgets. */
export function mayRunCommands(role: RepositoryRole): boolean {
  return COMMAND_ROLES.has(role);
}

const POLICY_ROLES: ReadonlySet<RepositoryRole> = new Set(['admin', 'maintain']);

/**
 * Loosening the policy is a maintainer's decision: maintain and admin only. The legacy
 * `permission` field says `write` for a maintainer, so the role comes from `role_name`.
 */
export function mayApprovePolicy(role: RepositoryRole): boolean {
  return POLICY_ROLES.has(role);
}

/**
 * The account's live role on the repository. A 404 (no such login, or not visible) is `none`;
 * other failures are thrown, so a broken token is reported rather than read as "no rights".
 * Needs only `metadata: read`.
 */
export async function livePermission(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  account: Account,
): Promise<LivePermission> {
  let data: Awaited<
    ReturnType<GitHubClient['rest']['repos']['getCollaboratorPermissionLevel']>
  >['data'];
  try {
    ({ data } = await client.rest.repos.getCollaboratorPermissionLevel({
      owner: repository.owner,
      repo: repository.repo,
      username: account.login,
    }));
  } catch (error) {
    if (statusOf(error) === 404) return { verified: true, role: 'none' };
    throw error;
  }
  if (data.user?.id !== account.id) {
    return {
      verified: false,
      role: 'none',
      reason: `the login ${JSON.stringify(account.login)} no longer belongs to account ${account.id}`,
    };
  }
  return { verified: true, role: roleOf(data.role_name, data.permission) };
}

/** `role_name` when GitHub names a built-in role; a custom role counts as its base permission. */
function roleOf(roleName: string, permission: string): RepositoryRole {
  return (
    ROLES.find((role) => role === roleName) ??
    BASE_PERMISSIONS.find((role) => role === permission) ??
    'none'
  );
}
