import type { Harness } from '../harness.ts';

/** An account with a token and one received PIX (a sandbox deposit) of `amount` BRL. */
export async function accountWithReceivedPix(h: Harness, amount = 100, scopes?: string[]) {
  const account = await h.createAccount();
  const pix = (await h.deposit(account.id, amount)) as { id: number; transactionId: string; endToEndId: string };
  const token = await h.tokenFor(account.id, scopes);
  return { account, pix, token };
}

/** The outbox events of an account, oldest first. */
export async function eventsOf(h: Harness, accountId: number, type?: string) {
  const rows = await h.c.db.selectFrom('events').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  return rows.filter((r) => !type || r.type === type).map((r) => ({ type: r.type, payload: r.payload as any }));
}
