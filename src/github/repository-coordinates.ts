/** A repository on GitHub by owner and name. */
export interface RepositoryCoordinates {
  readonly owner: string;
  readonly repo: string;
}

/** `owner/name` (as in `GITHUB_REPOSITORY`) → coordinates; undefined when it is not that shape. */
export function parseRepositoryName(fullName: string): RepositoryCoordinates | undefined {
  const match = /^([A-Za-z0-9-_.]+)\/([A-Za-z0-9-_.]+)$/.exec(fullName);
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  return { owner: match[1], repo: match[2] };
}

/**
 * The repository's web address, from the REST API's base URL the client talks to: api.github.com
 * (or a data-residency api.NAME.ghe.com) is served at the host without `api.`, a GitHub
 * Enterprise Server's https://HOST/api/v3 at https://HOST. Undefined for any other shape (a
 * proxy, a test double): the comment then names places without linking them.
 */
export function repositoryWebUrl(
  apiBaseUrl: string,
  repository: RepositoryCoordinates,
): string | undefined {
  let url: URL;
  try {
    url = new URL(apiBaseUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  const origin =
    path === '' && url.hostname.startsWith('api.')
      ? `${url.protocol}//${url.host.slice('api.'.length)}`
      : path === '/api/v3'
        ? url.origin
        : undefined;
  return origin === undefined ? undefined : `${origin}/${repository.owner}/${repository.repo}`;
}
