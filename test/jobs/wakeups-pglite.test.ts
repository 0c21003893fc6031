import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.c.start();
});
afterAll(() => h.close());

describe('in-process wake-ups on PGlite', () => {
  it('a job committed now runs at once, not at the next safety poll', async () => {
    const ran: number[] = [];
    h.c.scheduler.register('test.wake', async (_trx, job) => {
      ran.push(job.id);
    });
    const wakeAt = vi.spyOn(h.c.scheduler, 'wakeAt');
    try {
      await sleep(300);
      const now = h.clock.now();
      const id = await h.c.db.transaction().execute((trx) => h.c.scheduler.schedule(trx, 'test.wake', now));
      const until = Date.now() + 4_000; // the safety poll is 5 s
      while (!ran.includes(id) && Date.now() < until) await sleep(20);
      expect(ran).toContain(id);
      expect(wakeAt).toHaveBeenCalledWith(now);
    } finally {
      wakeAt.mockRestore();
    }
  });

  it('a wake-up for a later due time runs the job then', async () => {
    const ran: number[] = [];
    h.c.scheduler.register('test.later', async (_trx, job) => {
      ran.push(job.id);
    });
    // The harness clock is frozen: "later" becomes now when the test moves it.
    const dueAt = new Date(h.clock.now().getTime() + 60_000);
    const id = await h.c.scheduler.schedule(h.c.db, 'test.later', dueAt);
    await sleep(300);
    expect(ran).toEqual([]);
    h.clock.advance(60);
    h.c.scheduler.wakeAt(dueAt);
    const until = Date.now() + 4_000;
    while (!ran.includes(id) && Date.now() < until) await sleep(20);
    expect(ran).toContain(id);
  });
});
