import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClocksRepo } from '../../src/db/repos/test-clocks.repo.ts';
import { dueWakeups } from '../../src/jobs/due-wakeups.ts';
import { createClockMembership, REFRESH_MS } from '../../src/services/test-clocks/clock-membership.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * Which accounts are on a test clock is asked on every account request in sandbox mode; it is kept
 * in memory so that costs no statement (the lookup per request cost about a fifth of a cash-out's
 * throughput). It must still never answer an old set for long: read again after this process's own
 * change, on another process's NOTIFY, and at least every REFRESH_MS.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function putOnClock(accountId: number, time: string): Promise<string> {
  const id = crypto.randomUUID();
  await sql`INSERT INTO test_clocks (id, name, frozen_time, status, created_at, updated_at) VALUES (${id}::uuid, NULL, ${time}::timestamptz, 'ready', now(), now())`.execute(h.c.db);
  await sql`INSERT INTO test_clock_accounts (account_id, clock_id) VALUES (${accountId}, ${id}::uuid)`.execute(h.c.db);
  return id;
}

describe('test clock membership in memory', () => {
  it('many questions within REFRESH_MS read the database once; invalidate and the refresh bound read it again', async () => {
    let now = 1_000_000;
    const reads = vi.spyOn(testClocksRepo, 'members');
    try {
      const membership = createClockMembership({ db: h.c.db, now: () => now });
      const account = await h.createAccount();
      await Promise.all(Array.from({ length: 20 }, () => membership.of(account.id)));
      expect(await membership.of(account.id)).toBeUndefined();
      expect(reads).toHaveBeenCalledTimes(1);

      const clockId = await putOnClock(account.id, '2027-01-04T15:00:00Z');
      // Within the bound and without a notice, the set read before still answers...
      expect(await membership.of(account.id)).toBeUndefined();
      // ...until this process says it changed,
      membership.invalidate();
      expect(await membership.of(account.id)).toEqual({ clockId, time: new Date('2027-01-04T15:00:00Z') });
      expect(reads).toHaveBeenCalledTimes(2);
      // or the bound passes.
      await sql`UPDATE test_clocks SET frozen_time = '2027-02-01T00:00:00Z' WHERE id = ${clockId}::uuid`.execute(h.c.db);
      now += REFRESH_MS;
      expect(await membership.of(account.id)).toEqual({ clockId, time: new Date('2027-02-01T00:00:00Z') });
      expect(reads).toHaveBeenCalledTimes(3);
      await sql`DELETE FROM test_clocks WHERE id = ${clockId}::uuid`.execute(h.c.db);
    } finally {
      reads.mockRestore();
    }
  });

  it('a change made by another process (here: plain SQL) is announced: the listening instance reads the set again at once', async () => {
    const account = await h.createAccount();
    const invalidate = vi.fn();
    const listener = dueWakeups(h.c.database, {
      scheduler: { wakeAt() {}, lookSoon() {} },
      relay: { wakeUp() {}, lookSoon() {} },
      logger: h.c.logger,
      testClocks: { invalidate },
    });
    listener.start();
    try {
      // Listening reads the set again (notices may have been missed before).
      await vi.waitFor(() => expect(invalidate).toHaveBeenCalled(), { timeout: 10_000 });
      invalidate.mockClear();
      const clockId = await putOnClock(account.id, '2027-03-01T00:00:00Z');
      await vi.waitFor(() => expect(invalidate).toHaveBeenCalled(), { timeout: 10_000 });
      invalidate.mockClear();
      await sql`DELETE FROM test_clocks WHERE id = ${clockId}::uuid`.execute(h.c.db);
      await vi.waitFor(() => expect(invalidate).toHaveBeenCalled(), { timeout: 10_000 });
    } finally {
      await listener.stop();
    }
  });

  it('through the service: an account put on a clock by the API sees its time on the very next request', async () => {
    const account = await h.createAccount({ funds: 10 });
    const token = await h.tokenFor(account.id);
    const before = await h.api('GET', '/api/balance', token);
    expect(before.statusCode).toBe(200);
    const created = await h.admin('POST', '/sandbox/test-clocks', { frozenTime: '2027-05-05T12:00:00.000Z', accountIds: [account.id] });
    expect(created.statusCode, created.body).toBe(201);
    const after = await h.api('GET', '/api/balance', token);
    expect(after.json().consultedAt).toBe('2027-05-05T12:00:00.000Z');
    expect((await h.admin('DELETE', `/sandbox/test-clocks/${created.json().id}`)).statusCode).toBe(204);
    expect((await h.api('GET', '/api/balance', token)).json().consultedAt).not.toBe('2027-05-05T12:00:00.000Z');
  });
});
