/**
 * A webhook receiver that trusts nothing it cannot verify: the Standard Webhooks signature is checked
 * on the raw body with the account's whsec_ secret, stale or forged deliveries answer 400, and a
 * delivery seen before (same webhook-id, a retry) is acknowledged without being handled twice.
 *
 *   PIX_WEBHOOK_SECRET=whsec_... PORT=4000 npx tsx examples/webhook-receiver.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhooks, WebhookVerificationError, type WebhookEvent } from '@pix-account-service/sdk';
import { isMain } from './client-from-env.ts';

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: {
  secret: string;
  port?: number;
  onEvent: (event: WebhookEvent, id: string) => void | Promise<void>;
}): Promise<Receiver> {
  const webhooks = createWebhooks(options.secret);
  const handled = new Set<string>(); // keep these in your database in production
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: WebhookEvent;
    try {
      event = webhooks.verify(Buffer.concat(chunks), req.headers as Record<string, string>);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid signature');
    }
    const id = String(req.headers['webhook-id']);
    if (!handled.has(id)) {
      await options.onEvent(event, id);
      handled.add(id);
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (isMain(import.meta.url)) {
  const secret = process.env.PIX_WEBHOOK_SECRET;
  if (!secret) throw new Error('Set PIX_WEBHOOK_SECRET (GET /admin/accounts/{id}/webhook-secret)');
  const receiver = await startWebhookReceiver({
    secret,
    port: Number(process.env.PORT ?? 4000),
    onEvent: (event, id) => console.log(id, JSON.stringify(event)),
  });
  console.log(`listening on ${receiver.url}`);
}
