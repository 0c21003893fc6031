import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { createCheckSlots, type FailureTimes } from './check-slots.ts';

const KEY = { key: 'client:x', limit: 10 };
const NOW = 1_800_000_000_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `attempts` through the slots at once; `wrong(i)` says which fail, each failure "recorded" as one more time. */
async function burst(attempts: number, wrong: (i: number) => boolean, options: { checkMs?: number; maxWaitMs?: number } = {}) {
  const slots = createCheckSlots({ now: () => NOW, windowMs: 900_000, maxWaitMs: options.maxWaitMs ?? 5_000 });
  let failures: number[] = [];
  let running = 0;
  let mostRunning = 0;
  const outcomes = await Promise.all(
    Array.from({ length: attempts }, async (_, i) => {
      const slot = await slots.enter([KEY], new Map([[KEY.key, [] as FailureTimes]]));
      if (slot.refused) return 'refused';
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      await sleep(options.checkMs ?? 1);
      running -= 1;
      if (!wrong(i)) {
        slot.release();
        return 'right';
      }
      await sleep(1); // the failure's statement
      failures = [...failures, NOW];
      slot.release(new Map([[KEY.key, failures]]));
      return 'wrong';
    }),
  );
  const count = (o: string) => outcomes.filter((x) => x === o).length;
  return { right: count('right'), wrong: count('wrong'), refused: count('refused'), mostRunning, left: slots.size() };
}

describe('check slots', () => {
  it('25 wrong secrets at once: 10 checked, 15 refused unchecked', async () => {
    expect(await burst(25, () => true)).toEqual({ right: 0, wrong: 10, refused: 15, mostRunning: 10, left: 0 });
  });

  it('100 right secrets at once: all checked and right, never more than 10 at a time', async () => {
    expect(await burst(100, () => false)).toEqual({ right: 100, wrong: 0, refused: 0, mostRunning: 10, left: 0 });
  });

  it('9 wrong among 60 at once: every right one is checked (no key reached its limit)', async () => {
    expect(await burst(60, (i) => i < 9)).toEqual({ right: 51, wrong: 9, refused: 0, mostRunning: 10, left: 0 });
  });

  it('a wait is bounded by progress, not by its total: checks that keep ending never time a waiter out', async () => {
    // 100 right checks of 20 ms through 10 slots take 200 ms or more; a check ends every few ms.
    expect(await burst(100, () => false, { checkMs: 20, maxWaitMs: 100 })).toMatchObject({ right: 100, refused: 0 });
  });

  it('a waiter whose keys see no check end within the bound gets 503 with Retry-After', async () => {
    const slots = createCheckSlots({ now: () => NOW, windowMs: 900_000, maxWaitMs: 50 });
    const held = await Promise.all(Array.from({ length: 10 }, () => slots.enter([KEY], new Map())));
    const late = await slots.enter([KEY], new Map()).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DomainError);
    expect(late).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 1 } });
    for (const slot of held) if (!slot.refused) slot.release();
    expect(slots.size()).toBe(0);
  });

  it('failures that left the window no longer count', async () => {
    let now = NOW;
    const slots = createCheckSlots({ now: () => now, windowMs: 900_000, maxWaitMs: 50 });
    const full = new Map([[KEY.key, Array.from({ length: 10 }, (_, i) => NOW - 600_000 + i)]]);
    expect(await slots.enter([KEY], full)).toMatchObject({ refused: true });
    now = NOW + 300_000; // the oldest leaves at NOW + 300 000 ms exactly
    const slot = await slots.enter([KEY], full);
    expect(slot.refused).toBe(false);
  });
});
