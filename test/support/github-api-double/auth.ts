import type { Access, PermissionRule } from './fixture.js';

/** Fine-grained permissions as GitHub names them (`contents`, `pull_requests`, `checks`…). */
export type Permissions = Readonly<Record<string, Access>>;

export interface Identity {
  readonly login: string;
  readonly id: number;
  readonly type: 'User' | 'Bot' | 'Organization';
  readonly name?: string;
  readonly email?: string;
}

/** The identity behind `GITHUB_TOKEN` in a workflow run. */
export const GITHUB_ACTIONS_BOT: Identity = {
  login: 'github-actions[bot]',
  id: 41898282,
  type: 'Bot',
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

export interface TokenGrant {
  readonly token: string;
  readonly permissions: Permissions;
  readonly identity: Identity;
  /** `owner/repo` (lower case) the token may see; undefined means every repository. */
  readonly repositories?: ReadonlySet<string>;
  /** The app an installation token belongs to, for check runs' `app`. */
  readonly appId?: number;
}

/** `Authorization: token X` or `Bearer X`, as Octokit and GitHub accept both. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** The `iss` claim of a JWT, unverified: the double trusts the test that minted it. */
export function jwtIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null || !('iss' in payload)) return undefined;
    const issuer = payload.iss;
    return typeof issuer === 'string' || typeof issuer === 'number' ? String(issuer) : undefined;
  } catch {
    return undefined;
  }
}

const LEVEL: Record<Access, number> = { read: 1, write: 2, admin: 3 };

function holds(permissions: Permissions, name: string, needed: Access): boolean {
  const granted = permissions[name];
  // Every installation token carries `metadata: read`; GitHub makes it mandatory.
  if (granted === undefined) return name === 'metadata' && needed === 'read';
  return LEVEL[granted] >= LEVEL[needed];
}

/** Whether a token's permissions satisfy an operation's rule (`app-jwt` rules never are). */
export function satisfies(permissions: Permissions, rule: PermissionRule): boolean {
  if (rule === 'app-jwt') return false;
  return Object.entries(rule).every(([names, needed]) =>
    names.split('|').some((name) => holds(permissions, name, needed)),
  );
}
