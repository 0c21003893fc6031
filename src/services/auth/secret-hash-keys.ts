import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { secretHashKey, type SecretHashKey } from './secret-hash.ts';

/**
 * The keys of the keyed client-secret hash. `CLIENT_SECRET_HASH_KEY` (configured) hashes new secrets
 * when set; otherwise a key kept in the database (made once, shared by every instance) does. A
 * database-kept key that exists keeps verifying the hashes made under it after the variable is set.
 */
export async function loadSecretHashKeys(deps: {
  db: Kysely<any>;
  clock: Clock;
  configured: Buffer | undefined;
  /** Say so when no key is configured (production: the key belongs in a secret store). */
  warnWhenUnset: boolean;
  logger: Logger;
}): Promise<{ current: SecretHashKey; others: SecretHashKey[] }> {
  if (!deps.configured) {
    await sql`INSERT INTO client_secret_hash_key (id, key, created_at) VALUES (1, ${randomBytes(32)}, ${deps.clock.now()})
      ON CONFLICT (id) DO NOTHING`.execute(deps.db);
    if (deps.warnWhenUnset) {
      deps.logger.warn('CLIENT_SECRET_HASH_KEY is not set: generated client secrets are hashed under a key kept in the database next to them; set it from your secret store');
    }
  }
  const row = (await sql<{ key: Buffer | Uint8Array }>`SELECT key FROM client_secret_hash_key WHERE id = 1`.execute(deps.db)).rows[0];
  const kept = row ? secretHashKey(Buffer.from(row.key)) : undefined;
  if (deps.configured) {
    const current = secretHashKey(deps.configured);
    return { current, others: kept && kept.id !== current.id ? [kept] : [] };
  }
  if (!kept) throw new Error('client_secret_hash_key has no row after inserting one');
  return { current: kept, others: [] };
}
