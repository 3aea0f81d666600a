/**
 * Maps `items` through `task` with at most `limit` tasks in flight, keeping the order: enough
 * to overlap file-system waits, few enough not to run out of file descriptors.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  // One iterator shared by every worker: each item is taken exactly once.
  const queue = items.entries();
  const worker = async (): Promise<void> => {
    for (const [index, item] of queue) results[index] = await task(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
