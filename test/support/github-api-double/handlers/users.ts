import type { Identity } from '../auth.js';
import { type Handler, json, notFound, stringParam } from '../context.js';
import { publicUserObject } from '../github-objects.js';
import { botIdentityOf, type World } from '../state.js';

/** `created_at` of an account the double knows without a date of its own (GitHub's launch). */
const ACCOUNT_CREATED_AT = '2008-04-10T00:00:00Z';

interface KnownAccount {
  readonly identity: Identity;
  readonly createdAt: string;
}

/**
 * Every account the double knows, first mention of a login winning: the bots of registered
 * apps (created with their app), the identities of tokens (including those minted for an
 * installation), collaborators given a role, pull request authors, installation accounts, app
 * owners and repository owners.
 */
function* knownAccounts(world: World): Generator<KnownAccount> {
  for (const app of world.apps.values()) {
    yield { identity: botIdentityOf(app), createdAt: app.createdAt };
  }
  const dated = (identity: Identity) => ({ identity, createdAt: ACCOUNT_CREATED_AT });
  for (const grant of world.tokens.values()) yield dated(grant.identity);
  for (const repo of world.repositories.values()) {
    for (const collaborator of repo.collaborators.values()) yield dated(collaborator.identity);
  }
  for (const repo of world.repositories.values()) {
    for (const pull of repo.pulls.values()) yield dated(pull.user);
  }
  for (const installation of world.installations.values()) yield dated(installation.account);
  for (const app of world.apps.values()) yield dated(app.owner);
  for (const repo of world.repositories.values()) yield dated(repo.info.ownerIdentity);
}

/** The account with this login, compared case-insensitively as GitHub does. */
export function findAccount(world: World, login: string): KnownAccount | undefined {
  const wanted = login.toLowerCase();
  for (const account of knownAccounts(world)) {
    if (account.identity.login.toLowerCase() === wanted) return account;
  }
  return undefined;
}

/** `GET /users/{username}`: the account under its own spelling of the login, or 404. */
const getByUsername: Handler = (context) => {
  const account = findAccount(context.world, stringParam(context, 'username'));
  return account === undefined
    ? notFound(context)
    : json(200, publicUserObject(context.world.apiUrl, account.identity, account.createdAt));
};

export const userHandlers: Record<string, Handler> = {
  'users/get-by-username': getByUsername,
};
