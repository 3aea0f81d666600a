import { describe, expect, it } from '@jest/globals';
import { createDeliveryMemory } from '../../src/bot/delivery-memory.js';

const HOUR = 60 * 60 * 1000;

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

function memoryWith(maxEntries = 100, ttlMs = HOUR) {
  const clock = manualClock();
  return { clock, memory: createDeliveryMemory({ maxEntries, ttlMs, now: clock.now }) };
}

const KEY = 'delivery-1|octo/repo|aaaaaaa';

describe('createDeliveryMemory', () => {
  it('claims a key the first time and refuses its repeats', () => {
    const { memory } = memoryWith();
    expect(memory.claim(KEY)).toBe(true);
    expect(memory.claim(KEY)).toBe(false);
    expect(memory.claim(KEY)).toBe(false);
    expect(memory.claim('delivery-2|octo/repo|aaaaaaa')).toBe(true);
  });

  it('refuses a repeat until the time to live has passed, then claims it again', () => {
    const { clock, memory } = memoryWith();
    expect(memory.claim(KEY)).toBe(true);
    clock.advance(HOUR - 1);
    expect(memory.claim(KEY)).toBe(false);
    clock.advance(1);
    expect(memory.claim(KEY)).toBe(true);
    clock.advance(HOUR - 1);
    expect(memory.claim(KEY)).toBe(false); // the new claim starts a new time to live
  });

  it('lets a forgotten key be claimed again', () => {
    const { memory } = memoryWith();
    expect(memory.claim(KEY)).toBe(true);
    memory.forget(KEY);
    expect(memory.claim(KEY)).toBe(true);
    expect(memory.claim(KEY)).toBe(false);
    memory.forget('never claimed'); // no error
  });

  it('evicts the oldest keys past maxEntries', () => {
    const { clock, memory } = memoryWith(3);
    for (const key of ['a', 'b', 'c', 'd']) {
      expect(memory.claim(key)).toBe(true);
      clock.advance(1);
    }
    expect(memory.size).toBe(3);
    expect(memory.claim('a')).toBe(true); // evicted, so claimable: the durable guards take over
    expect(memory.size).toBe(3);
    expect(memory.claim('c')).toBe(false);
    expect(memory.claim('d')).toBe(false);
    expect(memory.claim('b')).toBe(true); // the oldest after 'a' came back
  });

  it('counts a reclaimed key as new when choosing what to evict', () => {
    const { clock, memory } = memoryWith(2, 10);
    memory.claim('a');
    clock.advance(5);
    memory.claim('b');
    clock.advance(5);
    expect(memory.claim('a')).toBe(true); // expired, claimed again: now the newest
    clock.advance(1);
    memory.claim('c'); // evicts b, the oldest claim
    expect(memory.claim('a')).toBe(false);
    expect(memory.claim('b')).toBe(true);
  });

  it('prunes expired keys so size stays small without evictions', () => {
    const { clock, memory } = memoryWith(100, 10);
    for (const key of ['a', 'b', 'c']) memory.claim(key);
    clock.advance(10);
    memory.claim('d');
    expect(memory.size).toBe(1);
  });

  it('refuses options that would make it unbounded or useless', () => {
    const now = () => 0;
    expect(() => createDeliveryMemory({ maxEntries: 0, ttlMs: HOUR, now })).toThrow(RangeError);
    expect(() => createDeliveryMemory({ maxEntries: 1.5, ttlMs: HOUR, now })).toThrow(RangeError);
    expect(() => createDeliveryMemory({ maxEntries: 10, ttlMs: 0, now })).toThrow(RangeError);
    expect(() => createDeliveryMemory({ maxEntries: 10, ttlMs: Number.NaN, now })).toThrow(
      RangeError,
    );
  });
});
