import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { checkLedger, findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';
import { pgUrl } from './pg-tools.ts';

/**
 * Ordinary mixed load (cash-outs, direct transfers on-us both ways and to the network, deposits,
 * settlement running at the same time) on a database of its own, so PostgreSQL's deadlock counter
 * is ours alone: it must not move, and no request may answer 5xx.
 */
const DB_NAME = `hardening_db_mixed_${process.pid}`;
let admin: pg.Client;
let h: Harness;
let url: string;

async function deadlocks(): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ deadlocks: string }>('SELECT deadlocks FROM pg_stat_database WHERE datname = $1', [DB_NAME]);
  return Number(rows[0]?.deadlocks ?? 0);
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const u = new URL(pgUrl());
  u.pathname = `/${DB_NAME}`;
  url = u.toString();
  h = await startHarness({ postgres: { url, poolSize: 12 } });
});

afterAll(async () => {
  await h?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
});

describe('mixed load finds no deadlock (PostgreSQL)', () => {
  it('cash-outs, on-us transfers both ways, network transfers, deposits and settlement at once: zero deadlocks, no 5xx, ledger exact', async () => {
    const accounts = await Promise.all(Array.from({ length: 5 }, () => payer(h, 5_000)));
    const before = await deadlocks();
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const statuses: Array<{ kind: string; status: number; body: string }> = [];
    const operations = Array.from({ length: 260 }, (_, i) => i);
    const run = async (i: number) => {
      const from = pick(accounts);
      const amount = 1 + (i % 7);
      const kind = ['cash-out', 'dict-on-us', 'dict-network', 'deposit', 'settle', 'cash-out', 'dict-on-us'][i % 7]!;
      let res: { statusCode: number; body: string };
      if (kind === 'cash-out') res = await h.api('POST', '/api/pix/cash-out', from.token, cashOutBody({ value: amount }));
      else if (kind === 'dict-on-us') {
        const to = pick(accounts.filter((a) => a.id !== from.id));
        res = await h.api('POST', '/dict/pix', from.token, { pixKey: to.pixKey, payment: { currency: 'BRL', amount } }, { 'x-idempotency-key': randomUUID() });
      } else if (kind === 'dict-network') {
        res = await h.api('POST', '/dict/pix', from.token, { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount } }, { 'x-idempotency-key': randomUUID() });
      } else if (kind === 'deposit') res = await h.admin('POST', '/sandbox/deposits', { accountId: from.id, amount });
      else {
        h.clock.advance(1);
        await h.c.scheduler.runDue();
        res = { statusCode: 200, body: '' };
      }
      statuses.push({ kind, status: res.statusCode, body: res.body });
    };
    // 16 clients at once.
    const queue = [...operations];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await run(i);
      }),
    );
    await h.advance(5);
    await h.advance(5);

    const failures = statuses.filter((s) => s.status >= 500);
    expect(failures).toEqual([]);
    expect(statuses.filter((s) => s.status === 201 || s.status === 200).length).toBe(operations.length);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
    expect((await checkLedger(h.c.db)).ok).toBe(true);
    const negative = await h.c.db.selectFrom('accounts').select('id').where((e) => e.or([e('available', '<', cents(0)), e('blocked', '<', cents(0))])).execute();
    expect(negative).toEqual([]);
    const pending = await h.c.db.selectFrom('transactions').select('id').where('status', '=', 'PENDING').where('kind', '=', 'WITHDRAW').execute();
    expect(pending).toEqual([]);
    const failedJobs = await h.c.db.selectFrom('jobs').select(['id', 'last_error']).where('status', '=', 'failed').execute();
    expect(failedJobs).toEqual([]);
    // Backends report their counters when idle or on exit: close the service's pool first.
    await h.close();
    h = undefined as unknown as Harness;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await deadlocks()).toBe(before);
  });
});
