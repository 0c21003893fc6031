import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPixAdminClient, createPixClient, type PixAdminClient, type PixClient } from '@pix-account-service/sdk';

/** Where `npm start` (run at the repository's root, DATA_DIR ./data) keeps the demo account's files. */
const DEMO_DIR = fileURLToPath(new URL('../data/demo/', import.meta.url));

/**
 * A client from the environment: PIX_BASE_URL (default http://127.0.0.1:3000), PIX_CLIENT_ID and
 * PIX_CLIENT_SECRET (default: the demo account's, from ../data/demo/credentials.json), PIX_CERT_FILE
 * (default ../data/demo/client-cert.pem), PIX_KEY_FILE (needed over https), PIX_WEBHOOK_SECRET.
 */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): PixClient {
  const demo = demoCredentials();
  const need = (name: string, fallback: string | undefined) => {
    const value = env[name] || fallback;
    if (!value) throw new Error(`Set ${name} (npm start prints the demo account's values)`);
    return value;
  };
  return createPixClient({
    baseUrl: env.PIX_BASE_URL ?? 'http://127.0.0.1:3000',
    clientId: need('PIX_CLIENT_ID', demo?.clientId),
    clientSecret: need('PIX_CLIENT_SECRET', demo?.clientSecret),
    certificate: {
      cert: readFileSync(env.PIX_CERT_FILE ?? path.join(DEMO_DIR, 'client-cert.pem'), 'utf8'),
      ...(env.PIX_KEY_FILE ? { key: readFileSync(env.PIX_KEY_FILE, 'utf8') } : {}),
    },
    ...(env.PIX_WEBHOOK_SECRET ? { webhookSecret: env.PIX_WEBHOOK_SECRET } : {}),
  });
}

/** An operator's client: PIX_BASE_URL and PIX_ADMIN_TOKEN (the ADMIN_TOKEN; the sandbox prints it). */
export function adminFromEnv(env: NodeJS.ProcessEnv = process.env): PixAdminClient {
  const adminToken = env.PIX_ADMIN_TOKEN;
  if (!adminToken) throw new Error('Set PIX_ADMIN_TOKEN (the service\'s ADMIN_TOKEN; npm start prints the sandbox\'s)');
  return createPixAdminClient({ baseUrl: env.PIX_BASE_URL ?? 'http://127.0.0.1:3000', adminToken });
}

function demoCredentials(): { clientId: string; clientSecret: string } | undefined {
  const file = path.join(DEMO_DIR, 'credentials.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { clientId: string; clientSecret: string }) : undefined;
}

/** True when this module is the script node was started with (not imported by a test). */
export const isMain = (url: string) => process.argv[1] !== undefined && fileURLToPath(url) === path.resolve(process.argv[1]);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
