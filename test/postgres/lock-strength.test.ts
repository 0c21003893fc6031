import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';
import { schemaOf, sideConnection } from './pg-tools.ts';

/**
 * Issue 20 item 4 (one lock order, by construction): the row locks of the money paths are FOR NO KEY
 * UPDATE, never FOR UPDATE. A foreign-key check takes FOR KEY SHARE on the row it names (an account,
 * an original transaction) whenever any transaction inserts a row naming it, at whatever point of
 * that transaction: those locks are outside the lock order. FOR UPDATE waits for them, and every
 * later balance update of the account queues behind the waiting FOR UPDATE: the deadlocks of the
 * mixed load (a MED opening waiting for a settlement batch that had emitted its events, while an
 * admission waited behind the MED). Here the other side holds exactly the lock such an insert takes.
 */
let h: Harness;
let schema: string;
beforeAll(async () => {
  h = await startHarness();
  schema = await schemaOf(h);
});
afterAll(() => h.close());

describe('locks never wait for foreign-key checks (PostgreSQL)', () => {
  it('opening and approving a MED and changing limits go on while another transaction holds the key-share locks of rows it inserted', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const other = await sideConnection(schema);
    try {
      await other.query('BEGIN');
      // What an INSERT of a posting, an event or a refund naming them takes, until it commits.
      await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE', [account.id]);
      await other.query('SELECT 1 FROM transactions WHERE id = $1 FOR KEY SHARE', [pix.id]);
      const opened = await h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, amount: 30 });
      expect(opened.statusCode, opened.body).toBe(201);
      expect((await h.api('POST', `/sandbox/med/${opened.json().id}/transition`, token, { to: 'RECEIVED' })).statusCode).toBe(200);
      const approved = await h.api('POST', `/sandbox/med/${opened.json().id}/transition`, token, { to: 'ANALYZED', analysisResult: 'APPROVED' });
      expect(approved.statusCode, approved.body).toBe(200);
      const limits = await h.admin('PATCH', `/admin/accounts/${account.id}/limits`, { daily: 5_000 });
      expect(limits.statusCode, limits.body).toBe(200);
      expect(await h.balance(account.id)).toEqual({ available: 70, blocked: 0 });
    } finally {
      await other.query('ROLLBACK').catch(() => {});
      await other.end();
    }
  });
});
