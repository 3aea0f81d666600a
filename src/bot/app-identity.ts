import type { GitHubClient } from '../github/github-client.js';

/** Who the App is on GitHub: every "is this our own event or comment?" is asked by these ids. */
export interface AppIdentity {
  readonly appId: number;
  /** `<slug>[bot]`, the account the App comments and creates check runs as. */
  readonly botLogin: string;
  /** The numeric id of that account: own comments and own events are recognised by it. */
  readonly botUserId: number;
}

/**
 * Looks the App's bot account up once and remembers it: the slug from `GET /app` (App JWT), then
 * the account's numeric id from `GET /users/<slug>[bot]` (any installation token). A failed
 * lookup is not remembered, so the next event tries again.
 */
export function appIdentityLookup(
  appId: number,
  appClient: () => Promise<GitHubClient>,
): (installationClient: GitHubClient) => Promise<AppIdentity> {
  let known: Promise<AppIdentity> | undefined;
  return (installationClient) => {
    known ??= lookUp(appId, appClient, installationClient).catch((error: unknown) => {
      known = undefined;
      throw error;
    });
    return known;
  };
}

async function lookUp(
  appId: number,
  appClient: () => Promise<GitHubClient>,
  installationClient: GitHubClient,
): Promise<AppIdentity> {
  const { data: app } = await (await appClient()).rest.apps.getAuthenticated();
  const slug = app?.slug;
  if (slug === undefined) throw new Error('GitHub did not return the App’s slug for GET /app.');
  const botLogin = `${slug}[bot]`;
  const { data: bot } = await installationClient.rest.users.getByUsername({ username: botLogin });
  return { appId, botLogin, botUserId: bot.id };
}
