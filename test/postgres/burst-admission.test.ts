import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, type SandboxService } from './sandbox-process-kit.ts';

/**
 * Issue 28 item 3: one admission path for bursts. With nothing locked, one account sends 400 on-us
 * payments (a cash-out to the PIX key of another account of this service) and 400 `/dict/pix`
 * transfers at once, to the service as users start it (src/main.ts, a separate process) on
 * PostgreSQL: every one is answered 2xx (or 4xx for the balance), none 503. They used to run one by
 * one through the account's bulkhead (two at a time, 3 s for each queued one), and 65-143 of the
 * on-us payments and 19-71 of the transfers answered 503; now they are admitted in the group-commit
 * batches with the network cash-outs. The bulkhead test (account-bulkhead.test.ts) still proves a
 * really held account answers 503 within its bound.
 */
const BURST = 400;

let svc: SandboxService | undefined;
afterAll(async () => {
  await svc?.stop();
});

describe('a burst of one account, nothing locked (PostgreSQL, the service as a process)', () => {
  it('400 on-us payments and 400 /dict/pix at once: all 2xx, none 503; the money and the ledger add up', async () => {
    svc = await startSandboxService(pgUrl(), { workers: 1, env: { SANDBOX_SETTLEMENT_DELAY_MS: '300' } });
    const s = svc;
    const payer = await s.account(0);
    const receiver = await s.account(0);
    // Limits high enough for the burst (a company's), and the money for it.
    expect((await s.admin('PATCH', `/admin/accounts/${payer.id}/limits`, { perTransaction: 1_000, daily: 1_000_000, nightly: 1_000_000 })).status).toBe(200);
    await payer.receive(5_000);

    const onUs = () =>
      payer.api('POST', '/api/pix/cash-out', {
        value: 1.5,
        externalId: `burst-${randomUUID()}`,
        description: 'rajada',
        details: { key: receiver.pixKey, keyType: 'RANDOM', name: 'Conta Processo', document: receiver.document },
      }, {}, 120_000);
    const dict = () =>
      payer.api('POST', '/dict/pix', { pixKey: receiver.pixKey, payment: { currency: 'BRL', amount: 1.5 } }, { 'x-idempotency-key': randomUUID() }, 120_000);

    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: BURST * 2 }, (_, i) => (i % 2 === 0 ? onUs() : dict()).then((res) => ({ kind: i % 2 === 0 ? 'on-us' : 'dict', ...res }))));
    const ms = performance.now() - started;
    const count = (kind: string, pred: (status: number) => boolean) => answers.filter((a) => a.kind === kind && pred(a.status)).length;
    console.log(
      `burst: ${BURST} on-us payments: ${count('on-us', (st) => st >= 200 && st < 300)} 2xx, ${count('on-us', (st) => st === 503)} 503;`,
      `${BURST} /dict/pix: ${count('dict', (st) => st >= 200 && st < 300)} 2xx, ${count('dict', (st) => st === 503)} 503; ${ms.toFixed(0)} ms;`,
      `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    const unexpected = answers.filter((a) => !(a.status >= 200 && a.status < 300));
    // What the service said of them, when something went wrong (warnings and errors of its log).
    if (unexpected.length > 0) console.log(s.service.lines().filter((l) => l.level >= 40).slice(-15).map((l) => JSON.stringify(l).slice(0, 600)).join('\n'));
    expect(unexpected.map((a) => `${a.kind} ${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);

    // Every payment is final (on-us settles at once; the transfers pay a key of ours too) and the
    // receiver got exactly what the payer paid: 800 x 1.50.
    const balance = await receiver.api('GET', '/api/balance');
    expect(balance.body.netBalance).toBe(BURST * 2 * 1.5);
    const payerBalance = await payer.api('GET', '/api/balance');
    expect(payerBalance.body.netBalance).toBe(5_000 - BURST * 2 * 1.5);
    const ledger = await s.admin('GET', '/admin/ledger/check');
    expect(ledger.body.ok, ledger.text).toBe(true);
  }, 300_000);
});
