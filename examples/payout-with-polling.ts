/**
 * Sends a payout to a PIX key and polls it until it is CONFIRMED or ERROR. The externalId makes the
 * request safe to send again: the SDK retries it through a busy service or a lost answer, and a
 * retry never pays twice (the service refuses the duplicate; the SDK answers the payout it made).
 *
 *   PIX_CLIENT_ID=... PIX_CLIENT_SECRET=... npx tsx examples/payout-with-polling.ts maria@example.com 12.34
 */
import { randomUUID } from 'node:crypto';
import type { PixClient } from '@pix-account-service/sdk';
import { clientFromEnv, isMain, sleep } from './client-from-env.ts';

export async function payoutWithPolling(
  client: PixClient,
  input: { value: number; key: string; keyType: 'DOCUMENT' | 'EMAIL' | 'PHONE' | 'RANDOM'; name: string; document: string; externalId?: string },
  options: { timeoutMs?: number; onPoll?: () => void | Promise<void> } = {},
) {
  const payout = await client.cashOut.create({
    value: input.value,
    externalId: input.externalId ?? randomUUID(),
    details: { key: input.key, keyType: input.keyType, name: input.name, document: input.document },
  });
  const deadline = Date.now() + (options.timeoutMs ?? 5 * 60_000);
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    const tx = await client.transactions.get(payout.transactionId);
    if (tx.status !== 'PENDING') return tx;
    if (Date.now() > deadline) throw new Error(`payout ${payout.transactionId} still PENDING after the timeout`);
    await options.onPoll?.();
    await sleep(wait);
  }
}

if (isMain(import.meta.url)) {
  const [key = 'maria@example.com', value = '1.00'] = process.argv.slice(2);
  const tx = await payoutWithPolling(clientFromEnv(), { value: Number(value), key, keyType: 'EMAIL', name: 'Maria da Silva', document: '11144477735' });
  console.log(`${tx.status}: ${JSON.stringify(tx)}`);
}
