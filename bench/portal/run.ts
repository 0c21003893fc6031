/**
 * Portal render benchmark: server time of each portal page with 100,000 transactions in the account
 * (issue 14: under 100 ms), member pages and the operator's. Prints median and p95 wall time and the
 * median CPU time per page from 2xx answers only, with the load average.
 *
 *   npm run bench:portal                 # embedded PGlite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_DB=postgres npm run bench:portal
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { startHarness } from '../../test/harness.ts';
import { portalClient, signedInOperator } from '../../test/portal/portal-client.ts';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const DAYS = 90;

const h = await startHarness({ start: new Date() });
try {
  const account = await h.createAccount({ name: 'Bench Account', funds: 1000 });
  const started = Date.now();
  // Spread over 90 days: about a third falls in the default 31-day window of the list.
  await sql`
    INSERT INTO transactions (transaction_id, account_id, kind, status, origin, original_amount, fee_amount, final_amount,
                              end_to_end_id, counterpart, created_at, processed_at, updated_at)
    SELECT gen_random_uuid(), ${account.id}, CASE WHEN g % 3 = 0 THEN 'WITHDRAW' ELSE 'PAYMENT' END,
           CASE WHEN g % 17 = 0 THEN 'ERROR' ELSE 'CONFIRMED' END, 'bench', 100 + g % 100000, 0, 100 + g % 100000,
           'E99999999' || to_char(now(), 'YYYYMMDDHH24MI') || lpad(g::text, 11, '0'),
           '{"name":"Pagador Bench","document":"11144477735","bank":{"bankISPB":"60746948","bankName":"Banco Bench","bankCode":null,"accountBranch":null,"accountNumber":null}}'::jsonb,
           now() - (g * (${DAYS} * 86400.0 / ${TRANSACTIONS})) * interval '1 second',
           now() - (g * (${DAYS} * 86400.0 / ${TRANSACTIONS})) * interval '1 second', now()
    FROM generate_series(1, ${TRANSACTIONS}) AS g`.execute(h.c.db);
  await sql`ANALYZE transactions`.execute(h.c.db);
  console.log(`seeded ${TRANSACTIONS} transactions in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const invited = await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'bench@example.com' });
  const member = portalClient(h);
  const path = new URL(invited.json().invitationUrl).pathname;
  await member.get(path);
  await member.post(path, { password: 'bench password 123' });
  await member.signIn('bench@example.com', 'bench password 123');
  const charge = await member.post('/portal/charges', { value: '42,00', description: 'bench', expiration: '60' });
  const chargePath = String(charge.headers.location);
  const operator = await signedInOperator(h);
  const some = await h.c.db.selectFrom('transactions').select('transaction_id').where('account_id', '=', account.id).orderBy('id', 'desc').offset(Math.min(5000, Math.floor(TRANSACTIONS / 2))).limit(1).executeTakeFirstOrThrow();

  const pages = [
    '/portal',
    '/portal/transactions',
    '/portal/transactions?type=PAYMENT&status=CONFIRMED',
    '/portal/transactions?page=200',
    `/portal/transactions/${some.transaction_id}`,
    '/portal/charges',
    '/portal/payouts',
    '/portal/webhooks',
    '/portal/credentials',
    '/portal/certificates',
    '/portal/med',
    '/portal/sandbox',
    chargePath,
  ];
  const operatorPages = ['/portal/admin/accounts', `/portal/admin/accounts/${account.id}`, '/portal/admin/audit', '/portal/admin/system'];
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} · ${ROUNDS} rounds · ${h.c.database.engine}`);
  console.log('page'.padEnd(56), 'median ms', ' p95 ms', ' cpu ms', ' 2xx');
  for (const [client, url] of [...pages.map((p) => [member, p] as const), ...operatorPages.map((p) => [operator, p] as const)]) {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < ROUNDS + 3; i++) {
      // app.inject's round trip: the server's whole work (session, queries, rendering), no network.
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const res = await client.get(url);
      const ms = performance.now() - t0;
      // CPU time this process spent on it (PGlite runs in-process): what the page costs on an idle
      // core; on a busy machine the wall time also counts the wait for a core.
      const used = process.cpuUsage(c0);
      if (i >= 3 && res.statusCode >= 200 && res.statusCode < 300) {
        times.push(ms);
        cpu.push((used.user + used.system) / 1000);
      }
    }
    const q = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(1);
    console.log(url.padEnd(56), q(times, 0.5).padStart(9), q(times, 0.95).padStart(7), q(cpu, 0.5).padStart(7), String(times.length).padStart(4));
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await h.close();
}
