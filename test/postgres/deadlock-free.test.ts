import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, until, type SandboxService } from './sandbox-process-kit.ts';

/**
 * Issue 28 item 2, "Done means": the mix that still found 1-3 deadlocks per ~11,000 requests, with the
 * service as users start it (WORKERS=2, src/main.ts) on a database of its own (its deadlock counter is
 * ours alone): several parallel requests carrying one NEW externalId, externalIds REPLAYED while their
 * payout settles, `error:*` and `delayed:` scenarios (rejections give limits back), refunds, MED
 * returns, split payouts, /dict/pix on-us and to the network, deposits and settlement running by
 * itself. Five runs in a row, each a new process: PostgreSQL's deadlock counter stays at 0, no answer
 * is a 5xx, a duplicate is answered as a duplicate, every payment ends, the ledger check is green.
 * (A focused reproduction before the fix: an externalId replayed while its payout settles gave 14
 * deadlocks in 30 s; the admission waited on the duplicate's unique key with the accounts locked.)
 */
const RUNS = 5;
const LOAD_MS = 10_000;
/** Each run goes on past LOAD_MS until this many answers came (a loaded machine gives few per second), at most MAX_LOAD_MS. */
const MIN_ANSWERS = 200;
const MAX_LOAD_MS = 120_000;
const CLIENTS = 12;

let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
});
let svc: SandboxService | undefined;
afterAll(async () => {
  await svc?.stop().catch(() => {});
  await admin?.end();
});

async function deadlocksOf(database: string): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ deadlocks: string }>('SELECT deadlocks FROM pg_stat_database WHERE datname = $1', [database]);
  return Number(rows[0]?.deadlocks ?? 0);
}

async function oneRun(run: number) {
  svc = await startSandboxService(pgUrl(), { workers: 2, env: { SANDBOX_SETTLEMENT_DELAY_MS: '200', DB_POOL_SIZE: '8' } });
  const s = svc;
  type Funded = Awaited<ReturnType<typeof s.account>> & { received: Array<{ transactionId: string; endToEndId: string; left: number }>; used: string[] };
  const accounts: Funded[] = [];
  for (let i = 0; i < 4; i++) {
    const acc = await s.account();
    expect((await s.admin('PATCH', `/admin/accounts/${acc.id}/limits`, { perTransaction: 100_000, daily: 10_000_000, nightly: 10_000_000 })).status).toBe(200);
    const received = [];
    for (let k = 0; k < 4; k++) received.push({ ...(await acc.receive(3_000)), left: 3_000 });
    accounts.push({ ...acc, received, used: [] });
  }
  const before = await deadlocksOf(s.databaseName);
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const other = (id: number) => pick(accounts.filter((a) => a.id !== id));
  const answers: Array<{ kind: string; status: number; text: string }> = [];
  const record = (kind: string, res: { status: number; text: string }) => answers.push({ kind, status: res.status, text: res.text.slice(0, 300) });
  const scenario = (): Record<string, string> => {
    const r = Math.random();
    if (r < 0.15) return { 'x-sandbox-scenario': 'error:order-rejected' };
    if (r < 0.25) return { 'x-sandbox-scenario': 'error:insufficient-funds' };
    if (r < 0.35) return { 'x-sandbox-scenario': 'delayed:1s' };
    return {};
  };
  const cashOut = (externalId: string) => ({ value: 1 + Math.floor(Math.random() * 3), externalId, description: 'mistura', details: { key: 'destino@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) } });
  const operations: Record<string, () => Promise<void>> = {
    // Several parallel requests with one new externalId: one admitted, the others duplicates.
    'same-new-externalId': async () => {
      const from = pick(accounts);
      const externalId = `mesmo-${randomUUID()}`;
      const body = cashOut(externalId);
      const headers = scenario();
      const results = await Promise.all(Array.from({ length: 4 }, () => from.api('POST', '/api/pix/cash-out', body, headers)));
      for (const res of results) record('same-new-externalId', res);
      expect(results.filter((r) => r.status === 201), 'one of the parallel requests admitted').toHaveLength(1);
      expect(results.filter((r) => r.status !== 201).map((r) => `${r.status} ${/"code":"(\w+)"/.exec(r.text)?.[1]}`)).toEqual(Array(3).fill('400 PIX_DUPLICATE_EXTERNAL_ID'));
      from.used.push(externalId);
    },
    // An externalId used a moment ago, replayed (its payout settling now, after the 200 ms delay).
    'replay-while-settling': async () => {
      const from = pick(accounts);
      const externalId = `replay-${randomUUID()}`;
      record('replay-first', await from.api('POST', '/api/pix/cash-out', cashOut(externalId), scenario()));
      for (let k = 0; k < 4; k++) {
        await new Promise((resolve) => setTimeout(resolve, 60 + Math.random() * 120));
        record('replay', await from.api('POST', '/api/pix/cash-out', cashOut(externalId)));
      }
      from.used.push(externalId);
    },
    'replay-old': async () => {
      const from = pick(accounts);
      if (from.used.length === 0) return;
      record('replay', await from.api('POST', '/api/pix/cash-out', cashOut(pick(from.used))));
    },
    'cash-out': async () => {
      const from = pick(accounts);
      record('cash-out', await from.api('POST', '/api/pix/cash-out', cashOut(`saida-${randomUUID()}`), scenario()));
    },
    'dict-on-us': async () => {
      const from = pick(accounts);
      record('dict-on-us', await from.api('POST', '/dict/pix', { pixKey: other(from.id).pixKey, payment: { currency: 'BRL', amount: 2 } }, { 'x-idempotency-key': randomUUID() }));
    },
    'dict-network': async () => {
      const from = pick(accounts);
      record('dict-network', await from.api('POST', '/dict/pix', { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 3 } }, { 'x-idempotency-key': randomUUID(), ...scenario() }));
    },
    refund: async () => {
      const acc = pick(accounts);
      const pix = acc.received.find((p) => p.left >= 10);
      if (!pix) return;
      pix.left -= 5;
      record('refund', await acc.api('POST', `/api/pix/refund-in/${pix.transactionId}`, { refundValue: 5, reason: 'devolvido' }, scenario()));
    },
    'med-return': async () => {
      const acc = pick(accounts);
      const pix = await acc.receive(30);
      const opened = await acc.api('POST', '/sandbox/med', { endToEndId: pix.endToEndId, cause: 'SCAM', description: 'golpe', amount: 20 });
      record('med', opened);
      if (opened.status !== 201) return;
      record('med', await acc.api('POST', `/sandbox/med/${opened.body.id}/transition`, { to: 'RECEIVED' }));
      record('med', await acc.api('POST', `/sandbox/med/${opened.body.id}/transition`, { to: 'ANALYZED', analysisResult: Math.random() < 0.7 ? 'APPROVED' : 'REJECTED', analysisDetails: 'analise' }));
    },
    splits: async () => {
      const owner = pick(accounts);
      const partner = other(owner.id);
      const created = await owner.api('POST', '/api/pix/cash-in', {
        transaction: { value: 20, description: 'Venda', externalId: `venda-${randomUUID().slice(0, 18)}` },
        payer: { fullName: 'Cliente', document: '52998224725' },
        splits: [
          { pixKey: 'fornecedor@loja.example', pixKeyType: 'EMAIL', name: 'Fornecedor', document: '52998224725', type: 'FIXED', value: 3, immediate: true },
          { pixKey: partner.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro', document: partner.document, type: 'PERCENTAGE', value: 10, immediate: true },
        ],
      }, { 'x-sandbox-scenario': 'pending' });
      record('split-charge', created);
      if (created.status === 201) record('split-pay', await owner.api('POST', `/sandbox/charges/${created.body.transactionId}/pay`, {}));
    },
    deposit: async () => {
      await pick(accounts).receive(40);
    },
  };
  const kinds = ['same-new-externalId', 'replay-while-settling', 'cash-out', 'replay-old', 'dict-on-us', 'dict-network', 'refund', 'same-new-externalId', 'med-return', 'splits', 'deposit', 'replay-while-settling'];
  const started = Date.now();
  let operationsRun = 0;
  const goOn = () => Date.now() - started < MAX_LOAD_MS && (Date.now() - started < LOAD_MS || answers.length < MIN_ANSWERS);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; goOn(); i += CLIENTS) {
        await operations[kinds[i % kinds.length]!]!();
        operationsRun += 1;
        // An operation with nothing to do returns at once: yield to the event loop (the answers of
        // the other clients), never spin on microtasks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  expect(answers.length, 'answers received').toBeGreaterThanOrEqual(MIN_ANSWERS);
  const serverErrors = answers.filter((a) => a.status >= 500);
  expect(serverErrors.map((a) => `${a.kind} ${a.status} ${a.text}`), `run ${run}: 5xx answers`).toEqual([]);
  // A replay answers the duplicate (400 PIX_DUPLICATE_EXTERNAL_ID, the spec's answer), never a second payout.
  const replays = answers.filter((a) => a.kind === 'replay');
  expect(replays.length).toBeGreaterThan(0);
  expect(replays.filter((a) => a.status !== 400 || !a.text.includes('"code":"PIX_DUPLICATE_EXTERNAL_ID"')).map((a) => `${a.status} ${a.text}`)).toEqual([]);
  await until(async () => {
    const { rows } = await s.side.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM transactions WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN'))
            + (SELECT count(*) FROM jobs WHERE kind LIKE 'payment.%' OR kind LIKE 'split%') AS n`,
    );
    return Number(rows[0]!.n) === 0;
  }, 60_000, 'payments still pending after the load');
  const ledger = await s.admin('GET', '/admin/ledger/check');
  expect(ledger.body.ok, ledger.text).toBe(true);
  // Backends report their counters when idle or on exit: stop the service first.
  expect(await s.stopProcess()).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const deadlocks = (await deadlocksOf(s.databaseName)) - before;
  console.log(`deadlock-free run ${run}: ${operationsRun} operations, ${answers.length} answers in ${((Date.now() - started) / 1000).toFixed(0)} s (${replays.length} replays), ${deadlocks} deadlocks; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  await s.stop();
  svc = undefined;
  return deadlocks;
}

describe('no deadlock under the mix of issue 28 (PostgreSQL, WORKERS=2, five runs in a row)', () => {
  it('parallel identical externalIds, replays during settlement, error and delayed scenarios, refunds, MED returns, splits: 0 deadlocks in each of five runs', async () => {
    const perRun: number[] = [];
    for (let run = 1; run <= RUNS; run++) perRun.push(await oneRun(run));
    expect(perRun).toEqual(Array(RUNS).fill(0));
  }, 900_000);
});
