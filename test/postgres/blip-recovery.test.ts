import { loadavg } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, until, type SandboxService } from './sandbox-process-kit.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * Short recovery after a database blip (issue 20, item 5), on PostgreSQL through a TCP proxy, with
 * the service as users start it (src/main.ts, a separate process): under a steady load of
 * cash-outs, the scheduler's claim of due payment steps commits on the server and its answer is
 * lost as every connection resets; the database then stays away for 6 s. The steps that claim
 * holds are leased to a claim nobody knows of: they used to wait for the 60 s lease to lapse,
 * leaving payouts PENDING with their money held. Now they run again within 10 s of the database's
 * return, and every payout admitted is final within 20 s of it.
 * The fault is caused, not waited for: the proxy loses the answer of the first claim that leased at
 * least one job (a claim that found nothing due goes through and the next one is watched), so the
 * lost claim always holds jobs (issue 28: on a clean clone under load the claim it lost had leased none).
 */
const DOWN_MS = 6_000;
const RETAKEN_WITHIN_MS = 10_000;
const FINAL_WITHIN_MS = 20_000;

let svc: SandboxService | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  proxy?.heal();
  await svc?.stop();
  await proxy?.close();
});

describe('a database blip under load (PostgreSQL, through a TCP proxy)', () => {
  it('a claim committed as the connection reset, then 6 s without a database: its jobs run again within 10 s of the return, every payout is final within 20 s', async () => {
    const target = new URL(pgUrl());
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const p = proxy;
    svc = await startSandboxService(pgUrl(), { workers: 1, throughPort: p.port, env: { SANDBOX_SETTLEMENT_DELAY_MS: '1000' } });
    const s = svc;
    const accounts = [await s.account(100_000), await s.account(100_000), await s.account(100_000)];

    // Steady load: four clients paying out all along; the admitted payouts are remembered, with
    // whether their request was sent before the database came back (the blip's own payouts).
    const admitted: string[] = [];
    const admittedOfBlip: string[] = [];
    let back = Infinity;
    const statuses: number[] = [];
    let loading = true;
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, n) => {
        while (loading) {
          const sentAt = performance.now();
          const res = await accounts[n % accounts.length]!.api('POST', '/api/pix/cash-out', s.cashOut(1), {}, 20_000).catch(() => undefined);
          if (res) statuses.push(res.status);
          if (res?.status === 201) admitted.push(res.body.transactionId as string);
          if (res?.status === 201 && sentAt < back) admittedOfBlip.push(res.body.transactionId as string);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
    await until(() => admitted.length >= 10, 30_000, 'no payouts admitted');

    // The next claim of due jobs commits, and its answer is lost as the database "restarts".
    let lost = false;
    const losing = p.loseAnswerTo('claim_due_jobs', { withRows: true }).then(() => {
      p.refuse();
      p.dropAll();
      lost = true;
    });
    await until(() => lost, 30_000, 'no claim went through the proxy');
    await losing;
    // Seen from the database itself (not through the proxy): the jobs leased right now.
    const { rows: leased } = await s.side.query<{ id: string; lease_token: string }>('SELECT id, lease_token FROM jobs WHERE lease_until > now()');
    expect(leased.length, 'jobs held by the lost claim').toBeGreaterThan(0);
    const admittedBefore = admitted.length;
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    p.heal();
    back = performance.now();

    // Each job of those claims is taken again (done and gone, or claimed anew) within 10 s.
    const retaken = async () => {
      const { rows } = await s.side.query<{ n: string }>(
        'SELECT count(*) AS n FROM jobs j JOIN unnest($1::bigint[], $2::uuid[]) AS l (id, token) ON j.id = l.id WHERE j.lease_token IS NOT DISTINCT FROM l.token',
        [leased.map((r) => r.id), leased.map((r) => r.lease_token)],
      );
      return Number(rows[0]!.n) === 0;
    };
    await until(retaken, RETAKEN_WITHIN_MS, 'the lost claim\'s jobs were not taken again');
    const retakenMs = performance.now() - back;

    // Every payout of the blip (its request sent before the database came back, the load going on
    // after it) is final within 20 s of the return.
    const pending = async () => {
      const { rows } = await s.side.query<{ n: string }>("SELECT count(*) AS n FROM transactions WHERE transaction_id = ANY ($1::uuid[]) AND status = 'PENDING'", [admittedOfBlip]);
      return Number(rows[0]!.n);
    };
    await until(async () => (await pending()) === 0 || performance.now() - back > FINAL_WITHIN_MS, FINAL_WITHIN_MS + 5_000, 'pending check');
    const finalMs = performance.now() - back;
    loading = false;
    await load;
    console.log(
      `blip: ${leased.length} jobs leased at the reset; taken again ${retakenMs.toFixed(0)} ms after the return; ${admitted.length} payouts admitted (${admittedBefore} before the reset, ${admittedOfBlip.length} sent before the return),`,
      `all final ${finalMs.toFixed(0)} ms after the return; answers ${[...new Set(statuses)].map((st) => `${st} x${statuses.filter((x) => x === st).length}`).join(', ')};`,
      `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    expect(await pending(), `payouts still PENDING ${FINAL_WITHIN_MS} ms after the database came back`).toBe(0);
    expect(finalMs).toBeLessThan(FINAL_WITHIN_MS);
    // Only availability answers during the blip, never a 500.
    expect(statuses.filter((st) => st !== 201 && st !== 503)).toEqual([]);
    const ledger = await s.admin('GET', '/admin/ledger/check');
    expect(ledger.body.ok, ledger.text).toBe(true);
  }, 240_000);
});
