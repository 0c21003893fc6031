import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContainer, type Container } from '../../src/container.ts';
import type { ListenHandlers } from '../../src/db/notifications.ts';
import { createAccessLease } from '../../src/services/auth/access-lease.ts';
import { startHarness, type Harness } from '../harness.ts';
import { client } from './auth-helpers.ts';

// Two instances on one PGlite (one process, as PGlite allows): `one` (the harness) and `two`,
// both started, so both keep an access lease and serve the still-active check from memory.
let one: Harness;
let two: { c: Container; app: Awaited<ReturnType<typeof buildApp>> };
beforeAll(async () => {
  one = await startHarness();
  one.c.start();
  const c = await createContainer(one.c.config, { clock: one.clock, database: one.c.database, logger: pino({ level: 'silent' }) });
  two = { c, app: await buildApp(c) };
  await two.app.ready();
  c.start();
});
afterAll(async () => {
  await two?.app.close();
  // Its database is the harness's: stop its background work only (the harness closes the rest).
  for (const worker of [...(two?.c.background ?? [])].reverse()) await worker.stop();
  await one?.close();
});

type App = Pick<Harness['app'], 'inject'>;
const balance = (app: App, token: string) => app.inject({ method: 'GET', url: '/api/balance', headers: { authorization: `Bearer ${token}` } });

async function tokenOf(c: Awaited<ReturnType<typeof client>>, app: App = one.app) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem) },
    payload: { clientId: c.clientId, clientSecret: c.clientSecret },
  });
  return res;
}

/** Calls until one is answered from the instance's memory (its lease is taken on first use). */
async function remembered(instance: { c: Container; app: App }, token: string) {
  for (let i = 0; i < 50; i++) {
    const before = instance.c.accountTokens.stillActiveStats().remembered;
    expect((await balance(instance.app, token)).statusCode).toBe(200);
    if (instance.c.accountTokens.stillActiveStats().remembered > before) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the still-active answer was never served from memory');
}

describe('the still-active check from memory on PGlite (in-process notifications, the same lease protocol)', () => {
  it('a certificate revoked through one instance fails on the very next request to either, and a new token is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await client(one);
      const token = (await tokenOf(c)).json().access_token as string;
      await remembered(two, token);
      await remembered(one, token);
      expect((await one.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
      expect((await balance(two.app, token)).statusCode).toBe(401);
      expect((await balance(one.app, token)).statusCode).toBe(401);
      expect((await tokenOf(c, two.app)).statusCode).toBe(401);
    }
  });

  it('a credential revoked through one instance fails on the very next request to either', async () => {
    const c = await client(one);
    const token = (await tokenOf(c)).json().access_token as string;
    await remembered(two, token);
    await remembered(one, token);
    await one.c.credentials.revoke(c.account.id, c.clientId);
    expect((await balance(two.app, token)).statusCode).toBe(401);
    expect((await balance(one.app, token)).statusCode).toBe(401);
    expect((await tokenOf(c, two.app)).statusCode).toBe(401);
  });

  it('a steady stream of calls asks the database nothing once remembered', async () => {
    const c = await client(one);
    const token = (await tokenOf(c)).json().access_token as string;
    await remembered(two, token);
    const before = two.c.accountTokens.stillActiveStats();
    for (let i = 0; i < 100; i++) expect((await balance(two.app, token)).statusCode).toBe(200);
    const after = two.c.accountTokens.stillActiveStats();
    expect(after.asked - before.asked).toBe(0);
    expect(after.remembered - before.remembered).toBe(100);
  });
});

describe('the access lease (fake time, a listener the test drives)', () => {
  function fakeListen() {
    let handlers: ListenHandlers | undefined;
    return {
      listen: async (_names: string[], h: ListenHandlers) => {
        handlers = h;
        return async () => {
          h.listening?.(false);
        };
      },
      up: () => handlers!.listening!(true),
      down: () => handlers!.listening!(false),
      notify: (n: number) => handlers!.notify('access_changed', String(n)),
    };
  }
  const timing = { leaseMs: 1_000, marginMs: 200, renewMs: 60_000 };

  async function leaseWith(now: () => number) {
    const wire = fakeListen();
    const lease = createAccessLease({ db: one.c.db, listen: wire.listen, logger: pino({ level: 'silent' }), timing, now });
    lease.start();
    await new Promise((resolve) => setImmediate(resolve));
    return { lease, wire };
  }
  /** A change as the trigger makes it (counter, then its notification), heard by the real instances only. */
  const change = async () => {
    const n = Number((await sql<{ n: string }>`UPDATE access_change SET n = n + 1 RETURNING n`.execute(one.c.db)).rows[0]!.n);
    await sql`SELECT pg_notify('access_changed@' || current_schema(), ${String(n)})`.execute(one.c.db);
    return n;
  };
  const row = async (id: string) =>
    (await sql<{ seen: string; leased: boolean }>`SELECT seen, lease_until > clock_timestamp() AS leased FROM access_instances WHERE id = ${id}`.execute(one.c.db)).rows[0];

  it('the memory is usable only while listening and leased; a lapsed lease comes back under a new epoch', async () => {
    let t = 0;
    const { lease, wire } = await leaseWith(() => t);
    try {
      expect(lease.epoch()).toBeUndefined(); // not listening yet
      wire.up();
      await lease.beat();
      const first = lease.epoch();
      expect(first).toBeDefined();
      expect((await row(lease.instanceId))!.leased).toBe(true);
      t = 799; // the lease's local end: 1000 - 200 margin, measured from before the renewal was sent
      expect(lease.epoch()).toBe(first);
      t = 800;
      expect(lease.epoch()).toBeUndefined();
      await lease.beat();
      const second = lease.epoch();
      expect(second).toBeDefined();
      expect(second).not.toBe(first); // whatever was remembered before the lapse is void
      wire.down();
      expect(lease.epoch()).toBeUndefined();
      await lease.beat();
      expect((await row(lease.instanceId))!.leased).toBe(false); // ended in the database too
    } finally {
      await lease.stop();
    }
    expect(await row(lease.instanceId)).toBeUndefined(); // a stopped instance removes itself
  });

  it('a change it was not told of: the heartbeat finds it behind, forgets, acknowledges; no renewal past it', async () => {
    const t = 0;
    const { lease, wire } = await leaseWith(() => t);
    try {
      wire.up();
      await lease.beat();
      const before = lease.epoch();
      expect(before).toBeDefined();
      // A change whose notification never reaches this lease.
      const n = await change();
      await lease.beat();
      expect(lease.epoch()).not.toBe(before);
      expect(lease.state().seen).toBe(n);
      expect(Number((await row(lease.instanceId))!.seen)).toBe(n);
    } finally {
      await lease.stop();
    }
  });

  it('a notification makes it forget at once and acknowledge its number', async () => {
    const { lease, wire } = await leaseWith(() => 0);
    try {
      wire.up();
      await lease.beat();
      const before = lease.epoch();
      const n = await change();
      wire.notify(n);
      expect(lease.epoch()).not.toBe(before); // synchronously, before any acknowledgement
      await lease.beat();
      expect(Number((await row(lease.instanceId))!.seen)).toBe(n);
    } finally {
      await lease.stop();
    }
  });

  it('a revocation waits for a leased instance to acknowledge, and for no longer than the leases when one never does', async () => {
    const { lease: silent, wire } = await leaseWith(() => performance.now());
    try {
      wire.up();
      await silent.beat();
      expect(silent.epoch()).toBeDefined();
      // A change committed; `silent` is never told (its listener is the test's and stays quiet) and
      // never beats again (renewMs is a minute): `confirm` must wait until its lease has ended.
      const n = await change();
      const waiter = createAccessLease({ db: one.c.db, listen: fakeListen().listen, logger: pino({ level: 'silent' }), timing });
      const started = performance.now();
      await waiter.confirm(n);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(timing.leaseMs - timing.marginMs - 100);
      expect(waited).toBeLessThan(timing.leaseMs + timing.marginMs + 500);
      expect(silent.epoch()).toBeUndefined(); // by then, its own lease had ended locally as well
      // Once it acknowledges, a revocation does not wait for it.
      await silent.beat();
      await silent.beat();
      const quick = performance.now();
      await waiter.confirm(n);
      expect(performance.now() - quick).toBeLessThan(200);
    } finally {
      await silent.stop();
    }
  });
});
