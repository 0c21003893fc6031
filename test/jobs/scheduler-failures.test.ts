import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/jobs/scheduler.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function capturingLogger() {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  return { logger, lines };
}

/** An error shaped as PostgreSQL reports a deadlock. */
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('jobs that keep failing are never silent, and contention never uses up their attempts', () => {
  it('a job aborted by deadlocks more times than its attempts still runs in the end', async () => {
    const { logger } = capturingLogger();
    const scheduler = createScheduler({ db: h.c.db, clock: h.clock, logger });
    let calls = 0;
    scheduler.register('test.contended', async () => {
      calls += 1;
      if (calls <= 4) throw deadlock();
    }, { maxAttempts: 2 });
    await scheduler.schedule(h.c.db, 'test.contended', h.clock.now());
    for (let i = 0; i < 6; i++) {
      await scheduler.runDue();
      h.clock.advance(5);
    }
    expect(calls).toBe(5);
    expect(await h.c.db.selectFrom('jobs').selectAll().where('kind', '=', 'test.contended').execute()).toEqual([]);
  });

  it('a job that gives up logs an error with its cause and payload, and stays visible as failed', async () => {
    const { logger, lines } = capturingLogger();
    const scheduler = createScheduler({ db: h.c.db, clock: h.clock, logger });
    scheduler.register('test.broken', async () => {
      throw new Error('network answer not understood');
    }, { maxAttempts: 2, backoff: () => 1 });
    await scheduler.schedule(h.c.db, 'test.broken', h.clock.now(), { id: 42 });
    await scheduler.runDue();
    h.clock.advance(1);
    await scheduler.runDue();
    const gaveUp = lines.find((l) => l.msg?.startsWith('job gave up'));
    expect(gaveUp).toMatchObject({ level: 50, kind: 'test.broken', attempt: 2, payload: { id: 42 }, err: { message: 'network answer not understood' } });
    const row = await h.c.db.selectFrom('jobs').selectAll().where('kind', '=', 'test.broken').executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.last_error).toContain('network answer not understood');
  });
});
