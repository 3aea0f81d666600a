/** The HTTP status of an Octokit request error, or undefined for anything else. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/** A 403/404 on a write: the token lacks the permission (fork PRs get a read-only token). */
export function isPermissionDenied(error: unknown): boolean {
  const status = statusOf(error);
  return status === 403 || status === 404;
}
