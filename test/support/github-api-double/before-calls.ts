/**
 * Work run before the double answers a given call of an operation: another client's request
 * landing between two of the code under test's, at a point the test chooses, with no timing.
 */
export class BeforeCalls {
  private readonly queued = new Map<string, { remaining: number; run: () => Promise<void> }[]>();

  /** Runs `run` before answering the `nth` next call of the operation (1: the next one). */
  add(operationId: string, nth: number, run: () => Promise<void>): void {
    const list = this.queued.get(operationId) ?? [];
    list.push({ remaining: Math.max(nth, 1), run });
    this.queued.set(operationId, list);
  }

  /** What to run before this call of the operation, if it is the one awaited. */
  take(operationId: string): (() => Promise<void>) | undefined {
    const list = this.queued.get(operationId) ?? [];
    for (const entry of list) entry.remaining -= 1;
    const due = list.filter((entry) => entry.remaining === 0);
    this.queued.set(
      operationId,
      list.filter((entry) => entry.remaining > 0),
    );
    if (due.length === 0) return undefined;
    return async () => {
      for (const entry of due) await entry.run();
    };
  }

  clear(): void {
    this.queued.clear();
  }
}
