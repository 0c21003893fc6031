import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import type { DB } from '../../db/schema.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { ALL_SCOPES, type Scope } from './scopes.ts';
import { generateClientSecret, type SecretHasher } from './secret-hash.ts';

/**
 * OAuth client credentials of an account. The secret is stored only as a hash: keyed (HMAC) when we
 * generated it, memory-hard (scrypt) when the caller chose it (see secret-hash.ts).
 */
export function createCredentialService(deps: { db: Kysely<DB>; clock: Clock; accounts: AccountService; secrets: SecretHasher }) {
  async function create(accountId: number, input: { clientSecret?: string; scopes?: string[] }) {
    await deps.accounts.get(accountId);
    const scopes = input.scopes ?? [...ALL_SCOPES];
    const unknown = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new ValidationError([`scopes must contain only: ${ALL_SCOPES.join(', ')}`]);
    // 36 base64url characters: 216 bits, within the 8-64 characters a secret may have.
    const clientSecret = input.clientSecret ?? generateClientSecret();
    const secretHash = input.clientSecret === undefined
      ? deps.secrets.hashGeneratedSecret(clientSecret)
      : await deps.secrets.hashChosenSecret(clientSecret);
    const clientId = newUuidV4();
    await deps.db
      .insertInto('credentials')
      .values({
        client_id: clientId,
        account_id: accountId,
        secret_hash: secretHash,
        scopes: [...new Set(scopes)].join(' '),
        created_at: deps.clock.now(),
      })
      .execute();
    return { clientId, clientSecret, scopes: [...new Set(scopes)] as Scope[] };
  }

  return { create };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
