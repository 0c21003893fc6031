import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { pgUrl, schemaOf, sideConnection } from './pg-tools.ts';
import { startStatementCounter } from './statement-counter.ts';

let h: Harness;
let counter: Awaited<ReturnType<typeof startStatementCounter>>;
beforeAll(async () => {
  const target = new URL(pgUrl());
  counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const viaCounter = new URL(pgUrl());
  viaCounter.hostname = '127.0.0.1';
  viaCounter.port = String(counter.port);
  h = await startHarness({ postgres: { url: viaCounter.toString() } });
  h.c.start();
});
afterAll(async () => {
  await h?.close();
  await counter?.close();
});

describe('no idle polling storm (PostgreSQL: LISTEN/NOTIFY, a slow safety poll)', () => {
  it('an idle instance sends at most 2 statements per second', async () => {
    await sleep(1_000); // start-up work done
    const before = counter.statements;
    const started = Date.now();
    await sleep(6_000);
    const seconds = (Date.now() - started) / 1000;
    const perSecond = (counter.statements - before) / seconds;
    // Polling every 100-200 ms, as before, sent ~38/s.
    expect(perSecond).toBeLessThanOrEqual(2);
  });

  it('a job enqueued by another connection wakes this instance and runs long before the safety poll', async () => {
    const ran: number[] = [];
    h.c.scheduler.register('test.wake', async (_trx, job) => {
      ran.push(job.id);
    });
    const wakeAt = vi.spyOn(h.c.scheduler, 'wakeAt');
    const side = await sideConnection(await schemaOf(h));
    try {
      await sleep(500);
      const now = h.clock.now();
      const { rows } = await side.query<{ id: string }>(
        `INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at) VALUES ('test.wake', $1, '{}', 3, $1, $1) RETURNING id`,
        [now],
      );
      const id = Number(rows[0]!.id);
      const until = Date.now() + 4_000; // the safety poll is 5 s
      while (!ran.includes(id) && Date.now() < until) await sleep(20);
      expect(ran).toContain(id);
      expect(wakeAt).toHaveBeenCalledWith(now);
    } finally {
      wakeAt.mockRestore();
      await side.end();
    }
  });

  it('the relay wakes on its channel, and only for what committed', async () => {
    const wakeUp = vi.spyOn(h.c.webhookRelay, 'wakeUp');
    const side = await sideConnection(await schemaOf(h));
    try {
      // The trigger on webhook_deliveries sends exactly this at the commit of an insert (migration 680).
      await side.query(`BEGIN`);
      await side.query(`SELECT pg_notify('deliveries_due@' || current_schema(), '0')`);
      await side.query(`ROLLBACK`);
      await sleep(300);
      expect(wakeUp).not.toHaveBeenCalled();
      await side.query(`SELECT pg_notify('deliveries_due@' || current_schema(), '0')`);
      const until = Date.now() + 3_000;
      while (wakeUp.mock.calls.length === 0 && Date.now() < until) await sleep(20);
      expect(wakeUp).toHaveBeenCalled();
    } finally {
      wakeUp.mockRestore();
      await side.end();
    }
  });
});
