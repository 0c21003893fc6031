import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScheduler, LEASE_SECONDS } from '../../src/jobs/scheduler.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const silent = pino({ level: 'silent' });
const at = (seconds: number) => new Date(h.clock.now().getTime() + seconds * 1000);

describe('durable jobs', () => {
  it('runs a job only once it is due on the service clock, inside the claiming transaction', async () => {
    const seen: string[] = [];
    const { id } = await h.createAccount({ name: 'not noted' });
    const scheduler = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    scheduler.register<{ note: string }>('test.note', async (trx, job) => {
      seen.push(job.payload.note);
      // The job's effect commits with its removal.
      await trx.updateTable('accounts').set({ name: `noted ${job.payload.note}` }).where('id', '=', id).execute();
    });
    await scheduler.schedule(h.c.db, 'test.note', at(10), { note: 'later' });
    expect(await scheduler.runDue()).toBe(0);
    h.clock.advance(10);
    expect(await scheduler.runDue()).toBe(1);
    expect(seen).toEqual(['later']);
    expect(await scheduler.runDue()).toBe(0);
    expect(await h.c.db.selectFrom('jobs').select('id').where('kind', '=', 'test.note').execute()).toEqual([]);
    expect((await h.c.accounts.get(id)).name).toBe('noted later');
  });

  it('retries a failing job with backoff, rolls back its effects, and marks it failed after the last try', async () => {
    const scheduler = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    const { id } = await h.createAccount({ name: 'before' });
    let calls = 0;
    scheduler.register(
      'test.fail',
      async (trx) => {
        calls += 1;
        await trx.updateTable('accounts').set({ name: 'changed' }).where('id', '=', id).execute();
        throw new Error('boom');
      },
      { maxAttempts: 3, backoff: (attempt) => attempt * 60 },
    );
    await scheduler.schedule(h.c.db, 'test.fail', at(0));
    await scheduler.runDue();
    expect(calls).toBe(1);
    expect((await h.c.accounts.get(id)).name).toBe('before');
    let job = await h.c.db.selectFrom('jobs').selectAll().where('kind', '=', 'test.fail').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 1, status: 'pending' });
    expect(job.run_at.getTime() - h.clock.now().getTime()).toBe(60_000);
    h.clock.advance(59);
    await scheduler.runDue();
    expect(calls).toBe(1);
    h.clock.advance(1);
    await scheduler.runDue();
    h.clock.advance(120);
    await scheduler.runDue();
    expect(calls).toBe(3);
    job = await h.c.db.selectFrom('jobs').selectAll().where('kind', '=', 'test.fail').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 3, status: 'failed' });
    expect(job.last_error).toContain('boom');
    h.clock.advance(10_000);
    await scheduler.runDue();
    expect(calls).toBe(3);
  });

  it('survives a restart: a job scheduled by one scheduler is run by a new one on the same database', async () => {
    const first = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    first.register('test.restart', async () => {});
    await first.schedule(h.c.db, 'test.restart', at(5), { n: 1 });
    await first.stop();
    const ran: number[] = [];
    const second = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    second.register<{ n: number }>('test.restart', async (_trx, job) => {
      ran.push(job.payload.n);
    });
    h.clock.advance(5);
    await second.runDue();
    expect(ran).toEqual([1]);
  });

  it('POST /sandbox/clock/advance moves the clock and runs what fell due (admin token only)', async () => {
    const ran: number[] = [];
    // The container's own scheduler is the one the route drives.
    h.c.scheduler.register<{ n: number }>('test.advance', async (_trx, job) => {
      ran.push(job.payload.n);
    });
    await h.c.scheduler.schedule(h.c.db, 'test.advance', at(3600), { n: 7 });
    const before = h.clock.now().getTime();
    const res = await h.app.inject({ method: 'POST', url: '/sandbox/clock/advance', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { seconds: 3600 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().jobsRun).toBeGreaterThanOrEqual(1);
    expect(new Date(res.json().now).getTime() - before).toBe(3_600_000);
    expect(ran).toEqual([7]);
    const anonymous = await h.app.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { seconds: 1 } });
    expect(anonymous.statusCode).toBe(401);
    const bad = await h.admin('POST', '/sandbox/clock/advance', { seconds: -5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(['seconds must be greater than or equal to 1']);
  });
  it('a step whose call is in flight is not run again when the service clock jumps an hour (its lease is real time, issue 17 item 4)', async () => {
    const first = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    const second = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const recorded: string[] = [];
    for (const scheduler of [first, second]) {
      scheduler.registerStep<{ note: string }, string>('test.step', {
        async call(jobs) {
          calls += 1;
          if (calls === 1) await held;
          return jobs.map((j) => `sent ${j.payload.note}`);
        },
        async record(_trx, done) {
          recorded.push(...done.map((d) => d.answer));
        },
      });
    }
    await first.schedule(h.c.db, 'test.step', h.clock.now(), { note: 'once' });
    const running = first.runDue();
    for (let i = 0; i < 50 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(1);
    // Business time jumps far past the lease; the lease is measured on the database's real clock.
    h.clock.advance(3600);
    expect(await second.runDue()).toBe(0);
    expect(calls).toBe(1);
    release();
    await running;
    expect(recorded).toEqual(['sent once']);
    expect(await h.c.db.selectFrom('jobs').select('id').where('kind', '=', 'test.step').execute()).toEqual([]);
  });

  it(`a step whose call runs on keeps its short lease (${LEASE_SECONDS} s, renewed every 5 s); a lease that lapsed is not revived and another worker takes the job (issue 20 item 5)`, async () => {
    const first = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    const second = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    for (const scheduler of [first, second]) {
      scheduler.registerStep<{ note: string }, string>('test.long', {
        async call(jobs) {
          calls += 1;
          if (calls === 1) await held;
          return jobs.map(() => 'sent');
        },
        async record() {},
      });
    }
    await first.schedule(h.c.db, 'test.long', h.clock.now(), { note: 'long' });
    const running = first.runDue();
    for (let i = 0; i < 100 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const leaseOf = async () => (await h.c.db.selectFrom('jobs').select('lease_until').where('kind', '=', 'test.long').executeTakeFirstOrThrow()).lease_until!.getTime();
    const claimed = await leaseOf();
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await leaseOf()).toBeGreaterThan(claimed);
    // The lease lapses (a worker too slow to renew it): it stays lapsed, and the job is another's.
    await h.c.db.updateTable('jobs').set({ lease_until: new Date(Date.now() - 60_000) }).where('kind', '=', 'test.long').execute();
    const lapsed = await leaseOf();
    await new Promise((r) => setTimeout(r, 5_500));
    expect(await leaseOf()).toBe(lapsed);
    expect(await second.runDue()).toBe(1);
    expect(calls).toBe(2);
    release();
    await running;
    expect(await h.c.db.selectFrom('jobs').select('id').where('kind', '=', 'test.long').execute()).toEqual([]);
  });
  it('stop() ends a drain after the batch in flight, though jobs keep coming due (a rolling restart under load: the shutdown must end)', async () => {
    const scheduler = createScheduler({ db: h.c.db, clock: h.clock, logger: silent });
    let ran = 0;
    let ranAfterStopAsked = 0;
    let endless = true;
    let stopping: Promise<void> | undefined;
    scheduler.register('test.endless', async (trx) => {
      ran += 1;
      if (stopping) ranAfterStopAsked += 1;
      // SIGTERM arrives while the drain runs (not awaited here: stop() waits for this very batch).
      else if (ran === 5) stopping = scheduler.stop();
      // As the other instances' traffic would: there is always one more job due.
      if (endless) await scheduler.schedule(trx, 'test.endless', at(0));
    });
    await scheduler.schedule(h.c.db, 'test.endless', at(0));
    scheduler.start();
    try {
      await vi.waitFor(() => expect(stopping).toBeDefined(), { timeout: 60_000, interval: 5 });
      await stopping;
      // The batch running when stop() was called ends, and no other (one job is due at a time):
      // not the drain's up to 1,000 batches.
      expect(ran).toBe(5);
      expect(ranAfterStopAsked).toBe(0);
      // What is left is left due, for the next start or another instance: nothing is lost.
      const left = await h.c.db.selectFrom('jobs').select(['id', 'status']).where('kind', '=', 'test.endless').execute();
      expect(left).toHaveLength(1);
      expect(left[0]!.status).toBe('pending');
      // A drain asked for after stop() (tests and tools drain a stopped scheduler) still runs what is due.
      endless = false;
      expect(await scheduler.runDue()).toBe(1);
      expect(await h.c.db.selectFrom('jobs').select('id').where('kind', '=', 'test.endless').execute()).toEqual([]);
    } finally {
      await scheduler.stop();
      await h.c.db.deleteFrom('jobs').where('kind', '=', 'test.endless').execute();
    }
  });
});
