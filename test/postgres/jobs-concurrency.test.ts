import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createScheduler } from '../../src/jobs/scheduler.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
let other: Database;
beforeAll(async () => {
  h = await startHarness();
  // A second "instance": its own connection pool on the same schema.
  const schema = (await h.c.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s;
  other = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://', schema });
});
afterAll(async () => {
  await other.close();
  await h.close();
});

describe('jobs on real PostgreSQL', () => {
  it('two schedulers draining the same table never run one job twice', async () => {
    const runs = new Map<number, number>();
    const make = (db: Database['db']) => {
      const s = createScheduler({ db, clock: h.clock, logger: pino({ level: 'silent' }), batchSize: 5 });
      s.register<{ n: number }>('test.once', async (_trx, job) => {
        runs.set(job.payload.n, (runs.get(job.payload.n) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 2));
      });
      return s;
    };
    const a = make(h.c.db);
    const b = make(other.db);
    for (let n = 0; n < 200; n++) await a.schedule(h.c.db, 'test.once', h.clock.now(), { n });
    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ranA + ranB).toBe(200);
    expect(ranA).toBeGreaterThan(0);
    expect(ranB).toBeGreaterThan(0);
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });
});
