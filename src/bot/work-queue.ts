/** How a queued job ended. The queue never rejects: a failure is an outcome like the others. */
export type QueueOutcome<T> =
  | { readonly status: 'done'; readonly value: T }
  | { readonly status: 'superseded' }
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * The App's work after a webhook is acknowledged (THREATS rules 2–3: answer fast, work from a
 * queue). One lane per repository runs one job at a time, in order; all lanes together hold at
 * most `concurrency` slots, because one small machine serves every installed repository.
 *
 * A job holds a slot while it analyses and may give it back for the rest (see `ReleaseSlot`):
 * publishing is mostly waiting on GitHub, which spaces an installation's writes a second or
 * more apart, and that wait must not keep other repositories from being analysed.
 */
export interface WorkQueue {
  /**
   * Queues `job` at the back of `lane`. A job of the same lane and `coalesceKey` that is still
   * waiting is dropped (its promise resolves `superseded`): only the newest push of a pull
   * request is worth analysing. A running job is never interrupted.
   */
  enqueue<T>(
    lane: string,
    coalesceKey: string,
    job: (releaseSlot: ReleaseSlot) => Promise<T>,
  ): Promise<QueueOutcome<T>>;
  /** Resolves once no job runs or waits. */
  idle(): Promise<void>;
  /** Jobs waiting plus jobs running. */
  readonly size: number;
}

/**
 * Gives the job's slot to the next ready lane while the job goes on; its own lane stays busy
 * until the job ends. Calling it again does nothing.
 */
export type ReleaseSlot = () => void;

interface Waiting {
  readonly coalesceKey: string;
  /** Runs the job, calls `finished`, then settles the job's promise; never rejects. */
  readonly run: (releaseSlot: ReleaseSlot, finished: () => void) => Promise<void>;
  readonly supersede: () => void;
}

/**
 * Creates an in-memory queue. It holds no state worth keeping across restarts: a lost job is a
 * missed delivery, which the reconciler redelivers (THREATS row 3).
 */
export function createWorkQueue(options: { readonly concurrency: number }): WorkQueue {
  const { concurrency } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be a positive integer, not ${concurrency}.`);

  const waitingByLane = new Map<string, Waiting[]>();
  /** Lanes with waiting jobs and none running, in the order they became ready. */
  const readyLanes: string[] = [];
  const runningLanes = new Set<string>();
  let slotsInUse = 0;
  let waitingCount = 0;
  let idleWaiters: (() => void)[] = [];

  const size = () => waitingCount + runningLanes.size;

  function pump(): void {
    while (slotsInUse < concurrency) {
      const lane = readyLanes.shift();
      if (lane === undefined) return;
      const waiting = waitingByLane.get(lane);
      const next = waiting?.shift();
      if (waiting === undefined || next === undefined) continue;
      if (waiting.length === 0) waitingByLane.delete(lane);
      waitingCount -= 1;
      runningLanes.add(lane);
      slotsInUse += 1;
      let holdsSlot = true;
      const releaseSlot = () => {
        if (!holdsSlot) return;
        holdsSlot = false;
        slotsInUse -= 1;
        pump();
      };
      void next.run(releaseSlot, () => {
        if (holdsSlot) {
          holdsSlot = false;
          slotsInUse -= 1;
        }
        finish(lane);
      });
    }
  }

  function finish(lane: string): void {
    runningLanes.delete(lane);
    // Back of the line, not the front: a busy repository takes turns with the others instead of
    // holding a slot while other repositories wait.
    if (waitingByLane.has(lane)) readyLanes.push(lane);
    pump();
    if (size() === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function enqueue<T>(
    lane: string,
    coalesceKey: string,
    job: (releaseSlot: ReleaseSlot) => Promise<T>,
  ): Promise<QueueOutcome<T>> {
    return new Promise<QueueOutcome<T>>((resolve) => {
      const waiting = waitingByLane.get(lane) ?? [];
      const previous = waiting.findIndex((entry) => entry.coalesceKey === coalesceKey);
      if (previous >= 0) {
        const [dropped] = waiting.splice(previous, 1);
        waitingCount -= 1;
        dropped?.supersede();
      }
      waiting.push({
        coalesceKey,
        supersede: () => resolve({ status: 'superseded' }),
        run: async (releaseSlot, finished) => {
          let outcome: QueueOutcome<T>;
          try {
            outcome = { status: 'done', value: await job(releaseSlot) };
          } catch (error) {
            outcome = { status: 'failed', error };
          }
          // The books first, so whoever awaits the outcome already sees the queue without it.
          finished();
          resolve(outcome);
        },
      });
      waitingCount += 1;
      if (!waitingByLane.has(lane)) {
        waitingByLane.set(lane, waiting);
        if (!runningLanes.has(lane)) readyLanes.push(lane);
      }
      pump();
    });
  }

  return {
    enqueue,
    idle: () =>
      size() === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    get size() {
      return size();
    },
  };
}
