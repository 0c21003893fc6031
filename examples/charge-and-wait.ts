/**
 * Creates a charge, prints its BR Code, and waits until it is paid (or fails, or expires), polling
 * the transaction with a growing interval. A webhook (see webhook-receiver.ts) tells you sooner.
 *
 *   PIX_CLIENT_ID=... PIX_CLIENT_SECRET=... npx tsx examples/charge-and-wait.ts 25.90
 */
import { randomUUID } from 'node:crypto';
import type { PixClient } from '@pix-account-service/sdk';
import { clientFromEnv, isMain, sleep } from './client-from-env.ts';

export async function chargeAndWait(
  client: PixClient,
  input: { value: number; description: string; payer: { fullName: string; document: string } },
  options: { timeoutMs?: number; onCreated?: (charge: { transactionId: string; pixCode: string }) => void | Promise<void> } = {},
) {
  const charge = await client.charges.create({
    transaction: { value: input.value, description: input.description, externalId: randomUUID() },
    payer: input.payer,
  });
  await options.onCreated?.(charge);
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    const tx = await client.transactions.get(charge.transactionId);
    if (tx.status !== 'PENDING') return tx;
    if (Date.now() > deadline) throw new Error(`charge ${charge.transactionId} still PENDING after the timeout`);
    await sleep(wait);
  }
}

if (isMain(import.meta.url)) {
  const tx = await chargeAndWait(
    clientFromEnv(),
    { value: Number(process.argv[2] ?? '10.00'), description: 'Example charge', payer: { fullName: 'Maria da Silva', document: '11144477735' } },
    { onCreated: (c) => console.log(`pay this BR Code:\n${c.pixCode}\n(sandbox: POST /sandbox/charges/${c.transactionId}/pay)`) },
  );
  console.log(`${tx.status}: ${JSON.stringify(tx)}`);
}
