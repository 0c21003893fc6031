import type { Harness } from '../harness.ts';
import { cpf } from '../factories.ts';

/** A funded account with a pix:read+pix:write token. */
export async function payer(h: Harness, funds = 1000, input: { type?: 'INDIVIDUAL' | 'COMPANY'; document?: string } = {}) {
  const account = await h.createAccount({ funds, ...input });
  const token = await h.tokenFor(account.id);
  return { ...account, token };
}

let seq = 0;
export function cashOutBody(overrides: Record<string, unknown> = {}, details: Record<string, unknown> = {}) {
  seq += 1;
  return {
    value: 10,
    externalId: `ext-${Date.now()}-${seq}`,
    description: 'pagamento',
    details: { key: `pessoa${seq}@example.com`, keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(1000 + seq), ...details },
    ...overrides,
  };
}

export async function eventsOf(h: Harness, transactionUuid: string) {
  const tx = await h.c.db.selectFrom('transactions').select('id').where('transaction_id', '=', transactionUuid).executeTakeFirstOrThrow();
  const rows = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', tx.id).orderBy('id').execute();
  return rows.map((r) => ({ type: r.type, payload: r.payload as Record<string, any> }));
}

export async function txRow(h: Harness, transactionUuid: string) {
  return h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', transactionUuid).executeTakeFirstOrThrow();
}
