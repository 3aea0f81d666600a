import { describe, expect, it } from '@jest/globals';
import { createWorkQueue } from '../../src/bot/work-queue.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run: no clock involved, so nothing here can be flaky. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A job that logs its start, then waits until the test releases it. */
function gatedJob(log: string[], name: string) {
  const gate = deferred<string>();
  const job = async () => {
    log.push(`start ${name}`);
    const value = await gate.promise;
    log.push(`end ${name}`);
    return value;
  };
  return { job, release: () => gate.resolve(name), fail: (error: unknown) => gate.reject(error) };
}

describe('createWorkQueue', () => {
  it('runs the jobs of one lane one at a time, in order', async () => {
    const queue = createWorkQueue({ concurrency: 4 });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => gatedJob(log, name));
    const outcomes = jobs.map((gated, index) => queue.enqueue('repo', `pr-${index}`, gated.job));
    await settle();
    expect(log).toEqual(['start a']);
    expect(queue.size).toBe(3);

    jobs[1]?.release(); // b is ready first but still waits for a
    await settle();
    expect(log).toEqual(['start a']);

    jobs[0]?.release();
    jobs[2]?.release();
    expect(await Promise.all(outcomes)).toEqual([
      { status: 'done', value: 'a' },
      { status: 'done', value: 'b' },
      { status: 'done', value: 'c' },
    ]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs lanes in parallel, never more than the concurrency', async () => {
    const queue = createWorkQueue({ concurrency: 2 });
    const log: string[] = [];
    let running = 0;
    let mostRunning = 0;
    const gates = new Map<string, Deferred<void>>();
    const outcomes = ['one', 'two', 'three', 'four'].map((lane) => {
      const gate = deferred();
      gates.set(lane, gate);
      return queue.enqueue(lane, 'pr-1', async () => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        log.push(lane);
        await gate.promise;
        running -= 1;
      });
    });
    await settle();
    expect(log).toEqual(['one', 'two']);
    expect(queue.size).toBe(4);

    gates.get('two')?.resolve();
    await settle();
    expect(log).toEqual(['one', 'two', 'three']);

    for (const gate of gates.values()) gate.resolve();
    await Promise.all(outcomes);
    expect(log).toEqual(['one', 'two', 'three', 'four']);
    expect(mostRunning).toBe(2);
  });

  it('gives a released slot to another lane while its own lane stays busy', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const log: string[] = [];
    const publishing = deferred();
    const outcomes = [
      queue.enqueue('one', 'pr-1', async (releaseSlot) => {
        log.push('one-1 judged');
        releaseSlot();
        releaseSlot(); // a second call gives nothing more back
        await publishing.promise;
        log.push('one-1 published');
      }),
      queue.enqueue('one', 'pr-2', async () => log.push('one-2')),
      queue.enqueue('two', 'pr-1', async () => log.push('two-1')),
      queue.enqueue('three', 'pr-1', async () => log.push('three-1')),
    ];
    await settle();
    // One slot: 'two' ran in it, then 'three'; lane 'one' waits for its publishing job.
    expect(log).toEqual(['one-1 judged', 'two-1', 'three-1']);
    expect(queue.size).toBe(2);

    publishing.resolve();
    await Promise.all(outcomes);
    expect(log).toEqual(['one-1 judged', 'two-1', 'three-1', 'one-1 published', 'one-2']);
    expect(queue.size).toBe(0);
  });

  it('never runs more analyses than the concurrency when slots come back', async () => {
    const queue = createWorkQueue({ concurrency: 2 });
    let analysing = 0;
    let mostAnalysing = 0;
    const outcomes = Array.from({ length: 8 }, (_, index) =>
      queue.enqueue(`lane-${index}`, 'pr-1', async (releaseSlot) => {
        analysing += 1;
        mostAnalysing = Math.max(mostAnalysing, analysing);
        await settle();
        analysing -= 1;
        releaseSlot();
        await settle();
      }),
    );
    await Promise.all(outcomes);
    expect(mostAnalysing).toBe(2);
  });

  it('lets a busy lane take turns with the others', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const log: string[] = [];
    const first = gatedJob(log, 'busy-1');
    const outcomes = [
      queue.enqueue('busy', 'pr-1', first.job),
      queue.enqueue('busy', 'pr-2', async () => log.push('busy-2')),
      queue.enqueue('quiet', 'pr-1', async () => log.push('quiet-1')),
    ];
    first.release();
    await Promise.all(outcomes);
    expect(log).toEqual(['start busy-1', 'end busy-1', 'quiet-1', 'busy-2']);
  });

  it('drops a waiting job when a newer one for the same key arrives; the running one finishes', async () => {
    const queue = createWorkQueue({ concurrency: 2 });
    const log: string[] = [];
    const pushes = ['push-1', 'push-2', 'push-3'].map((name) => gatedJob(log, name));
    const outcomes = pushes.map((gated) => queue.enqueue('repo', 'pr-7', gated.job));
    await settle();
    expect(queue.size).toBe(2); // push-1 running, push-3 waiting
    expect(await outcomes[1]).toEqual({ status: 'superseded' });

    for (const gated of pushes) gated.release();
    expect(await outcomes[0]).toEqual({ status: 'done', value: 'push-1' });
    expect(await outcomes[2]).toEqual({ status: 'done', value: 'push-3' });
    expect(log).toEqual(['start push-1', 'end push-1', 'start push-3', 'end push-3']);
  });

  it('puts the newer job at the back of its lane, behind other keys', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const log: string[] = [];
    const running = gatedJob(log, 'pr-1 first');
    const outcomes = [
      queue.enqueue('repo', 'pr-1', running.job),
      queue.enqueue('repo', 'pr-1', async () => log.push('pr-1 second')),
      queue.enqueue('repo', 'pr-2', async () => log.push('pr-2')),
      queue.enqueue('repo', 'pr-1', async () => log.push('pr-1 third')),
      queue.enqueue('other', 'pr-1', async () => log.push('other pr-1')),
    ];
    running.release();
    const statuses = (await Promise.all(outcomes)).map((outcome) => outcome.status);
    expect(statuses).toEqual(['done', 'superseded', 'done', 'done', 'done']);
    // Coalescing is per lane: the same key in another repository is another job.
    expect(log).toEqual(['start pr-1 first', 'end pr-1 first', 'other pr-1', 'pr-2', 'pr-1 third']);
  });

  it('reports a failing job and keeps its lane going', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const rejected = new Error('API down');
    const thrown = new Error('bug');
    const outcomes = [
      queue.enqueue('repo', 'pr-1', () => Promise.reject(rejected)),
      queue.enqueue('repo', 'pr-2', () => {
        throw thrown;
      }),
      queue.enqueue('repo', 'pr-3', async () => 'still runs'),
    ];
    expect(await Promise.all(outcomes)).toEqual([
      { status: 'failed', error: rejected },
      { status: 'failed', error: thrown },
      { status: 'done', value: 'still runs' },
    ]);
    expect(queue.size).toBe(0);
  });

  it('resolves idle once nothing runs or waits', async () => {
    const queue = createWorkQueue({ concurrency: 2 });
    await expect(queue.idle()).resolves.toBeUndefined();

    const log: string[] = [];
    const first = gatedJob(log, 'a');
    const second = gatedJob(log, 'b');
    void queue.enqueue('repo', 'pr-1', first.job);
    void queue.enqueue('repo', 'pr-2', second.job);
    let idle = false;
    const idlePromise = queue.idle().then(() => {
      idle = true;
    });

    first.release();
    await settle();
    expect(idle).toBe(false);
    expect(queue.size).toBe(1);

    second.fail(new Error('a failure still ends the work'));
    await idlePromise;
    expect(idle).toBe(true);
    expect(queue.size).toBe(0);
  });

  it('counts the finished job out before its outcome arrives', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    await queue.enqueue('repo', 'pr-1', async () => 'done');
    expect(queue.size).toBe(0);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    for (const concurrency of [0, -1, 1.5, Number.NaN]) {
      expect(() => createWorkQueue({ concurrency })).toThrow(RangeError);
    }
  });
});
