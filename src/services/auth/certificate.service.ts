import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { makeClientCertificate, parseCertificate } from './x509.ts';

const DAY_MS = 86_400_000;

/** The registry of client certificates linked to accounts (the identity half of mTLS + OAuth). */
export function createCertificateService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: AccountService;
  /** The bearer guard's memory of active access: a revocation answers once this instance forgot. */
  accessChanges?: { nextChange(withinMs: number): Promise<void> };
}) {
  async function register(accountId: number, pem: string) {
    await deps.accounts.get(accountId);
    const info = parseCertificate(pem);
    if (!info) throw new ValidationError(['pem must be a PEM-encoded X.509 certificate']);
    const inserted = await deps.db
      .insertInto('certificates')
      .values({
        fingerprint: info.fingerprint,
        account_id: accountId,
        subject: info.subject,
        not_before: info.notBefore,
        not_after: info.notAfter,
        pem: info.pem,
        created_at: deps.clock.now(),
      })
      .onConflict((oc) => oc.column('fingerprint').doNothing())
      .returning('fingerprint')
      .executeTakeFirst();
    if (!inserted) throw new DomainError('CONFLICT', undefined, `Certificate ${info.fingerprint} is already registered`);
    return info;
  }

  /** Makes a key and a one-year certificate, registers it, and hands both back (the key only now). */
  async function make(accountId: number) {
    const account = await deps.accounts.get(accountId);
    const now = deps.clock.now();
    const made = await makeClientCertificate({
      commonName: `${account.name} (account ${account.id})`,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(now.getTime() + 365 * DAY_MS),
    });
    const info = await register(accountId, made.certificatePem);
    return { ...info, ...made };
  }

  async function revoke(fingerprint: string) {
    const normalized = fingerprint.replaceAll(':', '').toLowerCase();
    // Armed before the commit, whose notification (migration 690) every instance receives at once:
    // answering after this instance saw it means the others have been told too.
    const forgotten = deps.accessChanges?.nextChange(1_000);
    const row = await deps.db
      .updateTable('certificates')
      .set({ revoked_at: deps.clock.now() })
      .where('fingerprint', '=', normalized)
      .where('revoked_at', 'is', null)
      .returning('fingerprint')
      .executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', undefined, `No active certificate with fingerprint ${normalized}`);
    await forgotten;
  }

  return { register, make, revoke };
}

export type CertificateService = ReturnType<typeof createCertificateService>;
