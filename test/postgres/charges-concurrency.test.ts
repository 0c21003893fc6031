import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('charges on PostgreSQL', () => {
  it('a charge paid many times at once is paid once and credited once', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    for (let round = 0; round < 3; round++) {
      const created = await h.api(
        'POST',
        '/api/pix/cash-in',
        token,
        { transaction: { value: 50, description: 'Pedido', externalId: `race-${round}` }, payer: { fullName: 'A', document: cpf(5) } },
        { 'x-sandbox-scenario': 'pending' },
      );
      expect(created.statusCode).toBe(201);
      const id = created.json().transactionId;
      const before = await h.balance(account.id);
      // Eight payers and the simulated payer's job all at once.
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => h.api('POST', `/sandbox/charges/${id}/pay`, token, {})),
        h.c.sandboxNetwork!.payCharge(account.id, id, {}).then(
          () => ({ statusCode: 200 }),
          (e: { status?: number }) => ({ statusCode: e.status ?? 500 }),
        ),
      ]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(8);
      // Issue 10 item 13: every loser is told the charge was paid, never that it expired.
      const losers = answers.flatMap((a) => ('body' in a && a.statusCode === 409 ? [a.json()] : []));
      expect(losers.length).toBeGreaterThanOrEqual(7);
      for (const loser of losers) expect(loser).toEqual({ statusCode: 409, message: 'The charge cannot be paid: it was already paid', error: 'Conflict' });
      expect((await h.balance(account.id)).available).toBeCloseTo(before.available + 50, 2);
      const events = await h.c.db.selectFrom('events').select('id').where('account_id', '=', account.id).where('type', '=', 'cash_in').execute();
      expect(events).toHaveLength(round + 1);
    }
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('payment and cancellation racing each other: exactly one wins, and the balance agrees', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    let paid = 0;
    for (let round = 0; round < 5; round++) {
      const txid = `racecancel${round}00000000000000000000`;
      const created = await h.api('PUT', `/cob/${txid}`, token, { calendario: { expiracao: 600 }, valor: { original: '10.00' }, chave: account.pixKey });
      expect(created.statusCode).toBe(201);
      const [pay, cancel] = await Promise.all([
        h.api('POST', `/sandbox/charges/${txid}/pay`, token, {}),
        h.api('PATCH', `/cob/${txid}`, token, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
      ]);
      expect([pay.statusCode, cancel.statusCode].sort()).toEqual(pay.statusCode === 200 ? [200, 400] : [200, 409]);
      const cob = (await h.api('GET', `/cob/${txid}`, token)).json();
      expect(cob.status).toBe(pay.statusCode === 200 ? 'CONCLUIDA' : 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
      if (pay.statusCode === 200) paid += 1;
    }
    expect((await h.balance(account.id)).available).toBe(10 * paid);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
