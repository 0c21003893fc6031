import { readFileSync } from 'node:fs';
import { createPixClient, type PixClient } from '../sdk/src/index.ts';

/**
 * A client from the environment, as `npm start` prints the demo account: PIX_BASE_URL (default
 * http://127.0.0.1:3000), PIX_CLIENT_ID, PIX_CLIENT_SECRET, PIX_CERT_FILE (default
 * ./data/demo/client-cert.pem) and PIX_KEY_FILE (needed over https).
 */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): PixClient {
  const need = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`Set ${name} (npm start prints the demo account's values)`);
    return value;
  };
  return createPixClient({
    baseUrl: env.PIX_BASE_URL ?? 'http://127.0.0.1:3000',
    clientId: need('PIX_CLIENT_ID'),
    clientSecret: need('PIX_CLIENT_SECRET'),
    certificate: {
      cert: readFileSync(env.PIX_CERT_FILE ?? './data/demo/client-cert.pem', 'utf8'),
      ...(env.PIX_KEY_FILE ? { key: readFileSync(env.PIX_KEY_FILE, 'utf8') } : {}),
    },
    ...(env.PIX_WEBHOOK_SECRET ? { webhookSecret: env.PIX_WEBHOOK_SECRET } : {}),
  });
}

/** True when this module is the script node was started with (not imported by a test). */
export const isMain = (url: string) => process.argv[1] !== undefined && new URL(url).pathname === process.argv[1];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
