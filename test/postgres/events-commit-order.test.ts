import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { openSse, type SseClient } from '../events/sse-client.ts';

/**
 * Issue 29: event ids come from a sequence drawn before commit, so an id drawn earlier may commit
 * later. The events API's cursor (list `after`, stream Last-Event-ID) must never step over such an
 * event. Proven here on real PostgreSQL with transactions held open and writers racing readers.
 */
let h: Harness;
let base: string;
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One event written by the real outbox in its own transaction, held open `holdMs` before commit. */
async function emitHeld(accountId: number, n: number, holdMs: number, gate?: Promise<void>) {
  await h.c.db.transaction().execute(async (trx) => {
    await h.c.outbox.emit(trx, { accountId, type: 'cash_in', transactionId: null, payload: { event: 'CashIn', n } });
    if (gate) await gate;
    if (holdMs > 0) await sleep(holdMs);
  });
}

async function listAll(token: string, after?: string) {
  const ids: string[] = [];
  let cursor = after;
  for (;;) {
    const res = await h.api('GET', `/api/events?size=7${cursor ? `&after=${cursor}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { data: Array<{ id: string }>; metadata: { hasMore: boolean; next: string | null } };
    ids.push(...page.data.map((e) => e.id));
    cursor = page.metadata.next ?? cursor;
    if (!page.metadata.hasMore) return { ids, cursor };
  }
}

describe('the events cursor under concurrent commits (PostgreSQL)', () => {
  it('does not show an event while a transaction that began writing before it is still open', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id, ['webhook:read']);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first event's id is drawn first, its transaction commits last.
    const first = emitHeld(account.id, 1, 0, gate);
    await sleep(200);
    await emitHeld(account.id, 2, 0);
    // Committed, but an earlier writer is still open: a reader taking it would step over the first.
    expect((await listAll(token)).ids).toEqual([]);
    release();
    await first;
    const rows = await h.c.db.selectFrom('events').select(['event_id', 'id']).where('account_id', '=', account.id).orderBy('id').execute();
    expect((await listAll(token)).ids).toEqual(rows.map((r) => r.event_id));
  });

  it('a list reader and a stream resumed with Last-Event-ID again and again get every event exactly once while writers race', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id, ['webhook:read']);
    const auth = { authorization: `Bearer ${token}` };
    const WRITERS = 6;
    const EACH = 15;

    // The stream opens before any write: it must carry all of them.
    let stream: SseClient = await openSse(`${base}/api/events/stream`, auth);
    await stream.waitForComment(/stream open/);
    const streamed: string[] = [];
    let writing = true;
    const reconnecting = (async () => {
      // Drop the connection every ~150 ms and resume from the last id received.
      while (writing || streamed.length + stream.events.length < WRITERS * EACH) {
        await sleep(150);
        // Resuming needs an id: without one a new stream starts at the present (by contract).
        if (streamed.length === 0 && stream.events.length === 0) continue;
        stream.close();
        streamed.push(...stream.events.map((e) => e.id!));
        const last = streamed.at(-1);
        stream = await openSse(`${base}/api/events/stream`, last ? { ...auth, 'last-event-id': last } : auth);
        expect(stream.status).toBe(200);
        if (!writing) await stream.waitForEvents(WRITERS * EACH - streamed.length, 30_000);
      }
    })();
    // A list reader polls with its cursor meanwhile.
    const listed: string[] = [];
    const polling = (async () => {
      let cursor: string | undefined;
      while (writing || listed.length < WRITERS * EACH) {
        const page = await listAll(token, cursor);
        listed.push(...page.ids);
        cursor = page.cursor;
        await sleep(30);
      }
    })();

    // Writers whose transactions stay open for random times: commit order differs from id order.
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < EACH; i++) await emitHeld(account.id, w * 100 + i, Math.floor(Math.random() * 40));
      }),
    );
    writing = false;
    await Promise.all([polling, reconnecting]);
    streamed.push(...stream.events.map((e) => e.id!));
    stream.close();

    const all = (await h.c.db.selectFrom('events').select('event_id').where('account_id', '=', account.id).execute()).map((r) => r.event_id);
    expect(all).toHaveLength(WRITERS * EACH);
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(streamed).size).toBe(streamed.length);
    expect([...listed].sort()).toEqual([...all].sort());
    expect([...streamed].sort()).toEqual([...all].sort());
    // One order for every reader: the list's.
    expect(streamed).toEqual(listed);
  }, 120_000);
});
