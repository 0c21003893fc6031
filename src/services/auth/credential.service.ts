import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { paginate } from '../../db/paginate.ts';
import type { DB } from '../../db/schema.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { accessChangeNumber, type AccessChanges } from './access-lease.ts';
import { ALL_SCOPES, type Scope } from './scopes.ts';
import { generateClientSecret, type SecretHasher } from './secret-hash.ts';

/**
 * OAuth client credentials of an account. The secret is stored only as a hash: keyed (HMAC) when we
 * generated it, memory-hard (scrypt) when the caller chose it (see secret-hash.ts).
 */
export function createCredentialService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: AccountService;
  secrets: SecretHasher;
  /** The bearer guard's memory of active access: a revocation answers once every instance forgot. */
  accessChanges?: AccessChanges;
}) {
  async function create(accountId: number, input: { clientSecret?: string; scopes?: string[] }, audit?: ChangeAudit) {
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
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('credentials')
        .values({ client_id: clientId, account_id: accountId, secret_hash: secretHash, scopes: [...new Set(scopes)].join(' '), created_at: deps.clock.now() })
        .execute();
      await audit?.(trx, { accountId, target: `credential:${clientId}`, after: { scopes: [...new Set(scopes)] } });
    });
    return { clientId, clientSecret, scopes: [...new Set(scopes)] as Scope[] };
  }

  /** The account's credentials, newest first (never the secret: only its hash is kept). */
  async function list(accountId: number) {
    return deps.db
      .selectFrom('credentials')
      .select(['client_id', 'scopes', 'created_at', 'revoked_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
  }

  /** One page of the account's credentials, newest first (never a secret); an unknown account is a 404. */
  async function page(accountId: number, asked: { page: number; pageSize: number }) {
    await deps.accounts.get(accountId);
    return paginate(
      deps.db
        .selectFrom('credentials')
        .select(['client_id', 'scopes', 'created_at', 'revoked_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('client_id'),
      asked,
    );
  }

  /** Revokes one of the account's credentials: token requests with it then fail. Another account's answers 404. */
  async function revoke(accountId: number, clientId: string, audit?: ChangeAudit) {
    await deps.accounts.get(accountId); // an unknown account is a 404 of its own
    // As a certificate's revocation: answered once every instance forgot (access-lease.ts).
    const change = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('credentials')
      .set({ revoked_at: deps.clock.now() })
      .where('client_id', '=', clientId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .returning('client_id')
      .executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', undefined, `No active credential ${clientId}`);
    await audit?.(trx, { accountId, target: `credential:${clientId}` });
    return accessChangeNumber(trx);
    });
    await deps.accessChanges?.confirm(change);
  }

  /** Whether this client id is the account's and not revoked (the sandbox's demo files). */
  async function isActive(clientId: string, accountId: number): Promise<boolean> {
    const row = await deps.db
      .selectFrom('credentials')
      .select('client_id')
      .where('client_id', '=', clientId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  return { create, list, page, revoke, isActive };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
