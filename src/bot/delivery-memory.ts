/**
 * Remembers which webhook deliveries were already taken on, so a redelivery (same
 * `X-GitHub-Delivery`, THREATS row 2) does not post a second comment or append a second ledger
 * line. It is a first, cheap line of defence in one process: the durable guards (the sticky
 * comment found by its marker, one check run and one ledger line per head SHA) still hold when
 * the process restarts or another instance receives the redelivery.
 */
export interface DeliveryMemory {
  /** True the first time `key` is seen within the time to live; false for a repeat. */
  claim(key: string): boolean;
  /** Lets `key` be claimed again: for a job that failed before it did anything. */
  forget(key: string): void;
  /** Keys remembered now, expired ones not yet pruned included. */
  readonly size: number;
}

export interface DeliveryMemoryOptions {
  /**
   * The bound on memory. Past it the oldest keys are forgotten first: a redelivery that late
   * is left to the durable guards rather than letting a flood of deliveries grow the heap.
   */
  readonly maxEntries: number;
  /** How long a key blocks its repeats, in milliseconds. */
  readonly ttlMs: number;
  /** The clock, in milliseconds; injected so tests need not wait. */
  readonly now: () => number;
}

/**
 * Creates a bounded, expiring set of claimed keys. Keys are built by the caller from the
 * delivery id, the repository and the head SHA.
 */
export function createDeliveryMemory(options: DeliveryMemoryOptions): DeliveryMemory {
  const { maxEntries, ttlMs, now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be a positive integer, not ${maxEntries}.`);
  if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be positive, not ${ttlMs}.`);

  /** Key → when it was claimed. A Map keeps insertion order, so the oldest claim comes first. */
  const claimedAt = new Map<string, number>();

  const expired = (at: number, time: number) => time - at >= ttlMs;

  function pruneExpired(time: number): void {
    for (const [key, at] of claimedAt) {
      if (!expired(at, time)) return;
      claimedAt.delete(key);
    }
  }

  return {
    claim(key) {
      const time = now();
      pruneExpired(time);
      const at = claimedAt.get(key);
      if (at !== undefined && !expired(at, time)) return false;
      // Delete before setting so a reclaimed key moves to the back, in claim order.
      claimedAt.delete(key);
      claimedAt.set(key, time);
      for (const [oldest] of claimedAt) {
        if (claimedAt.size <= maxEntries) break;
        claimedAt.delete(oldest);
      }
      return true;
    },
    forget(key) {
      claimedAt.delete(key);
    },
    get size() {
      return claimedAt.size;
    },
  };
}
