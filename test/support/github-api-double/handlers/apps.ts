import { randomBytes } from 'node:crypto';
import type { Permissions } from '../auth.js';
import {
  bodyAs,
  failure,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  stringParam,
} from '../context.js';
import type { Access } from '../fixture.js';
import { appObject, installationObject } from '../github-objects.js';
import {
  type AppInfo,
  botIdentityOf,
  type Installation,
  repositoryKey,
  timestamp,
} from '../state.js';

function appOf(context: HandlerContext): AppInfo {
  if (context.app === undefined)
    throw new Error('github-api-double: app-jwt handler without an app');
  return context.app;
}

const LEVEL: Record<Access, number> = { read: 1, write: 2, admin: 3 };

const getAuthenticated: Handler = (context) =>
  json(200, appObject(context.world.apiUrl, appOf(context)));

const getRepoInstallation: Handler = (context) => {
  const app = appOf(context);
  const key = repositoryKey(stringParam(context, 'owner'), stringParam(context, 'repo'));
  const installation = [...context.world.installations.values()].find(
    (candidate) =>
      candidate.appId === app.id &&
      key.startsWith(`${candidate.account.login.toLowerCase()}/`) &&
      (candidate.repositories === undefined || candidate.repositories.has(key)),
  );
  return installation === undefined
    ? notFound(context)
    : json(200, installationObject(context.world.apiUrl, installation, app));
};

/** Narrows an installation's permissions to those requested; undefined if any exceeds them. */
function narrowed(installation: Installation, requested: Permissions | undefined) {
  if (requested === undefined) return installation.permissions;
  for (const [name, level] of Object.entries(requested)) {
    const granted = installation.permissions[name];
    if (granted === undefined || LEVEL[granted] < LEVEL[level]) return undefined;
  }
  return requested;
}

const createInstallationToken: Handler = (context) => {
  const app = appOf(context);
  const installation = context.world.installations.get(intParam(context, 'installation_id'));
  if (installation === undefined || installation.appId !== app.id) return notFound(context);
  const request = bodyAs<{ repositories?: string[]; permissions?: Permissions }>(context);
  const permissions = narrowed(installation, request.permissions);
  if (permissions === undefined) {
    return failure(context, 422, 'The permissions requested are not granted to this installation.');
  }
  const owner = installation.account.login.toLowerCase();
  const repositories =
    request.repositories === undefined
      ? installation.repositories
      : new Set(request.repositories.map((name) => `${owner}/${name.toLowerCase()}`));
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  context.world.tokens.set(token, {
    token,
    permissions,
    identity: botIdentityOf(app),
    ...(repositories === undefined ? {} : { repositories }),
    appId: app.id,
  });
  const expiresAt = timestamp(new Date(context.world.now().getTime() + 3600_000));
  return json(201, {
    token,
    expires_at: expiresAt,
    permissions: { ...permissions },
    repository_selection: repositories === undefined ? 'all' : 'selected',
  });
};

export const appHandlers: Record<string, Handler> = {
  'apps/get-authenticated': getAuthenticated,
  'apps/get-repo-installation': getRepoInstallation,
  'apps/create-installation-access-token': createInstallationToken,
};
