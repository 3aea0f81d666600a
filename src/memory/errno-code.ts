/**
 * The `code` of a failed system call (ENOENT, ELOOP, …), or undefined. Read by shape, not with
 * `instanceof Error`: errors from node:fs may come from another realm (vm, Jest).
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
