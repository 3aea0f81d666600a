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
