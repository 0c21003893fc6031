import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { checkLedger, findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, until } from './sandbox-process-kit.ts';
import { ADMIN } from '../deployment/instances-kit.ts';

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

/**
 * The same question with the service as users start it: WORKERS=2 (src/main.ts forks two workers,
 * each with its own pool, batcher, scheduler claim loops and relay) on a database of its own, the
 * sandbox clock running in real time so settlement runs by itself in both workers while requests
 * arrive. Every kind of money movement at once: cash-outs (some rejected by the network, which gives
 * their limit back), /dict/pix on-us and to the network, refunds of received PIX (some rejected: the
 * reservation is given back), MED moves (opened, approved or rejected), charge payments (by another
 * bank, and on-us by QR code), charges with split payouts (to another bank and on-us), deposits, and
 * clock advances that run the due settlement in the request's worker.
 */
describe('mixed load with WORKERS=2 finds no deadlock (PostgreSQL, the real multi-process start)', () => {
  it('cash-outs, /dict/pix, refunds, MED moves, charge payments, split payouts and settlement from two workers: 0 deadlocks, no 5xx, everything final, ledger exact', async () => {
    const svc = await startSandboxService(pgUrl(), { workers: 2, env: { SANDBOX_SETTLEMENT_DELAY_MS: '300', DB_POOL_SIZE: '8' } });
    try {
      const counter = async () => {
        await admin.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await admin.query<{ deadlocks: string }>('SELECT deadlocks FROM pg_stat_database WHERE datname = $1', [svc.databaseName]);
        return Number(rows[0]?.deadlocks ?? 0);
      };
      type Funded = Awaited<ReturnType<typeof svc.account>> & { received: Array<{ transactionId: string; endToEndId: string; left: number }> };
      const accounts: Funded[] = [];
      for (let i = 0; i < 6; i++) {
        const acc = await svc.account();
        const limits = await svc.admin('PATCH', `/admin/accounts/${acc.id}/limits`, { perTransaction: 100_000, daily: 10_000_000, nightly: 10_000_000 });
        expect(limits.status, limits.text).toBe(200);
        const received = [];
        for (let k = 0; k < 6; k++) received.push({ ...(await acc.receive(2_000)), left: 2_000 });
        accounts.push({ ...acc, received });
      }
      const before = await counter();
      const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
      const other = (id: number) => pick(accounts.filter((a) => a.id !== id));
      const answers: Array<{ kind: string; status: number; text: string }> = [];
      const record = (kind: string, res: { status: number; text: string }) => answers.push({ kind, status: res.status, text: res.text.slice(0, 300) });
      const rejectSome = (): Record<string, string> => (Math.random() < 0.4 ? { 'x-sandbox-scenario': 'error:order-rejected' } : {});
      const charge = async (owner: (typeof accounts)[number], value: number, splits?: unknown[]) => {
        const res = await owner.api('POST', '/api/pix/cash-in', { transaction: { value, description: 'Venda', externalId: `venda-${randomUUID().slice(0, 18)}` }, payer: { fullName: 'Cliente', document: '52998224725' }, ...(splits ? { splits } : {}) }, { 'x-sandbox-scenario': 'pending' });
        record('charge', res);
        return res.status === 201 ? (res.body as { transactionId: string; pixCode: string }) : undefined;
      };
      const operations: Record<string, () => Promise<void>> = {
        'cash-out': async () => {
          const from = pick(accounts);
          record('cash-out', await from.api('POST', '/api/pix/cash-out', svc.cashOut(1 + Math.floor(Math.random() * 5)), rejectSome()));
        },
        'dict-on-us': async () => {
          const from = pick(accounts);
          record('dict-on-us', await from.api('POST', '/dict/pix', { pixKey: other(from.id).pixKey, payment: { currency: 'BRL', amount: 2 } }, { 'x-idempotency-key': randomUUID() }));
        },
        'dict-network': async () => {
          const from = pick(accounts);
          record('dict-network', await from.api('POST', '/dict/pix', { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 3 } }, { 'x-idempotency-key': randomUUID(), ...rejectSome() }));
        },
        refund: async () => {
          const acc = pick(accounts);
          const pix = acc.received.find((p) => p.left >= 10);
          if (!pix) return;
          pix.left -= 5;
          record('refund', await acc.api('POST', `/api/pix/refund-in/${pix.transactionId}`, { refundValue: 5, reason: 'devolvido' }, rejectSome()));
        },
        med: async () => {
          const acc = pick(accounts);
          const pix = await acc.receive(30);
          const opened = await acc.api('POST', '/sandbox/med', { endToEndId: pix.endToEndId, cause: 'SCAM', description: 'golpe', amount: 20 });
          record('med-open', opened);
          if (opened.status !== 201) return;
          const received = await acc.api('POST', `/sandbox/med/${opened.body.id}/transition`, { to: 'RECEIVED' });
          record('med-move', received);
          if (received.status !== 200) return;
          const approve = Math.random() < 0.5;
          record('med-move', await acc.api('POST', `/sandbox/med/${opened.body.id}/transition`, approve ? { to: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'golpe confirmado' } : { to: 'ANALYZED', analysisResult: 'REJECTED', analysisDetails: 'sem indícios' }));
        },
        'charge-paid-by-another-bank': async () => {
          const owner = pick(accounts);
          const created = await charge(owner, 7);
          if (created) record('charge-pay', await owner.api('POST', `/sandbox/charges/${created.transactionId}/pay`, {}));
        },
        'charge-paid-on-us': async () => {
          const owner = pick(accounts);
          const created = await charge(owner, 4);
          if (created) record('charge-pay-on-us', await other(owner.id).api('POST', '/api/pix/cash-out-qrcode', { value: 4, qrCode: created.pixCode, externalId: `qr-${randomUUID()}` }));
        },
        'split-payouts': async () => {
          const owner = pick(accounts);
          const partner = other(owner.id);
          const created = await charge(owner, 20, [
            { pixKey: 'fornecedor@loja.example', pixKeyType: 'EMAIL', name: 'Fornecedor', document: '52998224725', type: 'FIXED', value: 3, immediate: true },
            { pixKey: partner.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro', document: partner.document, type: 'PERCENTAGE', value: 10, immediate: true },
          ]);
          if (created) record('split-charge-pay', await owner.api('POST', `/sandbox/charges/${created.transactionId}/pay`, {}));
        },
        deposit: async () => {
          await pick(accounts).receive(50);
          answers.push({ kind: 'deposit', status: 201, text: '' });
        },
      };
      const kinds = ['cash-out', 'dict-on-us', 'dict-network', 'refund', 'med', 'charge-paid-by-another-bank', 'charge-paid-on-us', 'split-payouts', 'deposit', 'cash-out', 'dict-network'];
      // The load crosses midnight in São Paulo inside the night window (20:00-06:00): payouts admitted
      // before it count in one day and the night, those after it in the next day and the same night,
      // and a rejected payout gives back the windows it was admitted in, while admissions take today's.
      const { body: clock } = await svc.admin('POST', '/sandbox/clock/advance', { seconds: 1 });
      const now = Date.parse(clock.now);
      const nextMidnight = Math.ceil((now - 3 * 3_600_000) / 86_400_000) * 86_400_000 + 3 * 3_600_000;
      const toBeforeMidnight = Math.floor((nextMidnight - now) / 1000) - 12;
      if (toBeforeMidnight > 0) expect((await svc.admin('POST', '/sandbox/clock/advance', { seconds: toBeforeMidnight })).status).toBe(200);
      for (const acc of accounts) await acc.renewToken();
      // 12 clients at once for 30 s (the issue saw 6 deadlocks in 45 s of such load), and settlement:
      // the workers' schedulers by themselves, and a clock advance every 2 s that runs what is due in
      // the worker that answers it.
      const loadMs = 30_000;
      const stopAt = Date.now() + loadMs;
      let done = 0;
      const settling = (async () => {
        while (Date.now() < stopAt) {
          record('settle', await svc.call('POST', '/sandbox/clock/advance', { body: { seconds: 1 }, headers: { authorization: `Bearer ${ADMIN}` }, timeoutMs: 120_000 }));
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
      })();
      await Promise.all(
        Array.from({ length: 12 }, async (_, client) => {
          for (let i = client; Date.now() < stopAt; i += 12) {
            await operations[kinds[i % kinds.length]!]!();
            done += 1;
          }
        }),
      );
      await settling;

      const serverErrors = answers.filter((a) => a.status >= 500);
      expect(serverErrors, `${serverErrors.length} of ${answers.length} answers were 5xx`).toEqual([]);
      // Refusals are allowed (a business rule said no), but most of the load must have been admitted.
      const ok = answers.filter((a) => a.status >= 200 && a.status < 300).length;
      expect(ok / answers.length, JSON.stringify(answers.filter((a) => a.status >= 300).slice(0, 5))).toBeGreaterThan(0.9);
      expect(new Set(answers.map((a) => a.kind))).toEqual(new Set(['cash-out', 'dict-on-us', 'dict-network', 'refund', 'med-open', 'med-move', 'charge', 'charge-pay', 'charge-pay-on-us', 'split-charge-pay', 'deposit', 'settle']));
      // Everything the load started finishes by itself (settlement in the workers' schedulers).
      await until(async () => {
        const { rows } = await svc.side.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM transactions WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN'))
                + (SELECT count(*) FROM jobs WHERE kind LIKE 'payment.%' OR kind LIKE 'split%') AS n`,
        );
        return Number(rows[0]!.n) === 0;
      }, 60_000, 'payments still pending after the load');
      const failedJobs = await svc.side.query('SELECT id, kind, last_error FROM jobs WHERE status = $1', ['failed']);
      expect(failedJobs.rows).toEqual([]);
      const ledger = await svc.admin('GET', '/admin/ledger/check');
      expect(ledger.status, ledger.text).toBe(200);
      expect(ledger.body.ok, ledger.text).toBe(true);
      const refusals = answers.filter((a) => a.status >= 300).map((a) => `${a.kind} ${a.status} ${/"code":"([A-Z_]+)"/.exec(a.text)?.[1] ?? ''}`);
      const { rows: outcomes } = await svc.side.query<{ origin: string; status: string; n: string }>('SELECT origin, status, count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1, 2');
      console.log(
        `mixed load WORKERS=2: ${done} operations, ${answers.length} answers (${ok} 2xx) in ${loadMs / 1000} s, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`,
        `\nrefusals: ${[...new Set(refusals)].map((r) => `${r} x${refusals.filter((x) => x === r).length}`).join(', ')}`,
        `\ntransactions: ${outcomes.map((o) => `${o.origin} ${o.status} ${o.n}`).join(', ')}`,
      );
      // Backends report their counters when idle or on exit: stop the service first.
      expect(await svc.stopProcess()).toBe(0);
      await new Promise((r) => setTimeout(r, 1_200));
      expect(await counter(), 'deadlocks detected by PostgreSQL during the load').toBe(before);
    } finally {
      await svc.stop().catch(() => {});
    }
  }, 300_000);
});
