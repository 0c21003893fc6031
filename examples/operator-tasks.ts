/**
 * An operator's script with the SDK's admin client: find accounts (name, document, id or PIX key),
 * check an account's webhooks (the failed attempts, a test event to its URLs) and, when asked,
 * rotate its webhook signing secret (both secrets sign during the overlap, so receivers can switch).
 *
 *   PIX_ADMIN_TOKEN=adm_... npm run operator -- "Conta Demo"
 *   PIX_ADMIN_TOKEN=adm_... npm run operator -- 1 --test-event cash_in --rotate-secret
 */
import type { PixAdminClient, paths } from '@pix-account-service/sdk';
import { adminFromEnv, isMain } from './client-from-env.ts';

/** The webhook event names, as the SDK's generated types know them. */
type EventName = paths['/admin/accounts/{id}/webhooks/test']['post']['requestBody']['content']['application/json']['event'];

/** Every account `q` matches, walking all pages. */
export async function findAccounts(admin: PixAdminClient, q: string) {
  const found = [];
  for await (const account of admin.accounts.list({ q, pageSize: 100 })) {
    found.push(account);
  }
  return found;
}

/** The account's latest failed webhook attempts and, with `event`, a test delivery of it to its URLs. */
export async function webhookHealth(admin: PixAdminClient, accountId: number, options: { event?: EventName; latest?: number } = {}) {
  const failed = await admin.webhookDeliveries.list(accountId, { status: 'failed', pageSize: options.latest ?? 10 });
  const test = options.event ? await admin.webhooks.test(accountId, { event: options.event }) : undefined;
  return { failedTotal: failed.metadata.total, failed: failed.data, test };
}

/** A new signing secret; the previous one keeps signing until the answer's previousSecretValidUntil. */
export function rotateWebhookSecret(admin: PixAdminClient, accountId: number) {
  return admin.webhookSecret.rotate(accountId);
}

if (isMain(import.meta.url)) {
  const [q = '', ...flags] = process.argv.slice(2);
  const admin = adminFromEnv();
  const accounts = await findAccounts(admin, q);
  if (accounts.length === 0) console.log(`no account matches "${q}"`);
  for (const account of accounts) console.log(`#${account.id} ${account.name} (${account.document}) key ${account.pixKey}: R$ ${account.balance.available.toFixed(2)}`);
  const [first] = accounts;
  const at = flags.indexOf('--test-event');
  if (first && (at >= 0 || flags.includes('--failed'))) {
    const health = await webhookHealth(admin, first.id, at >= 0 ? { event: flags[at + 1] as EventName } : {});
    console.log(`${health.failedTotal} failed attempt(s); latest:`);
    for (const a of health.failed) console.log(`  ${a.sentAt} ${a.event} ${a.url} -> ${a.statusCode ?? a.error}`);
    for (const a of health.test?.attempts ?? []) console.log(`test ${health.test!.event} to ${a.url}: ${a.statusCode ?? a.error} in ${a.durationMs} ms`);
  }
  if (first && flags.includes('--rotate-secret')) {
    const rotated = await rotateWebhookSecret(admin, first.id);
    console.log(`new secret ${rotated.secret}; the previous one signs too until ${rotated.previousSecretValidUntil ?? '(there was none)'}`);
  }
}
