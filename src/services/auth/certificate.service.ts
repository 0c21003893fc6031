import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import { paginate } from '../../db/paginate.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { accessChangeNumber, type AccessChanges } from './access-lease.ts';
import { makeClientCa, makeClientCertificate, parseCertificate, signCertificateRequest } from './x509.ts';

const DAY_MS = 86_400_000;

/** The registry of client certificates linked to accounts (the identity half of mTLS + OAuth). */
export function createCertificateService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: AccountService;
  /** The bearer guard's memory of active access: a revocation answers once every instance forgot. */
  accessChanges?: AccessChanges;
}) {
  async function register(accountId: number, pem: string, audit?: ChangeAudit) {
    await deps.accounts.get(accountId);
    const info = parseCertificate(pem);
    if (!info) throw new ValidationError(['pem must be a PEM-encoded X.509 certificate']);
    return deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
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
    await audit?.(trx, { accountId, target: `certificate:${info.fingerprint}`, after: { subject: info.subject, notAfter: info.notAfter.toISOString() } });
    return info;
    });
  }

  /** Makes a key and a one-year certificate, registers it, and hands both back (the key only now). */
  async function make(accountId: number, audit?: ChangeAudit) {
    const account = await deps.accounts.get(accountId);
    const now = deps.clock.now();
    const made = await makeClientCertificate({
      commonName: `${account.name} (account ${account.id})`,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(now.getTime() + 365 * DAY_MS),
    });
    const info = await register(accountId, made.certificatePem, audit);
    return { ...info, ...made };
  }

  /** The service's client-certificate CA, made once (the first concurrent maker wins). */
  async function clientCa() {
    const existing = await deps.db.selectFrom('client_ca').selectAll().executeTakeFirst();
    if (existing) return existing;
    const now = deps.clock.now();
    const made = await makeClientCa({ notBefore: new Date(now.getTime() - 60_000), notAfter: new Date(now.getTime() + 10 * 365 * DAY_MS) });
    await deps.db
      .insertInto('client_ca')
      .values({ private_pkcs8_pem: made.privateKeyPem, certificate_pem: made.certificatePem, created_at: now })
      .onConflict((oc) => oc.column('singleton').doNothing())
      .execute();
    return deps.db.selectFrom('client_ca').selectAll().executeTakeFirstOrThrow();
  }

  /** Signs the account's CSR with the service's CA (one year) and registers the certificate. */
  async function signRequest(accountId: number, csrPem: string, audit?: ChangeAudit) {
    await deps.accounts.get(accountId);
    const ca = await clientCa();
    const now = deps.clock.now();
    const pem = await signCertificateRequest({
      csrPem,
      caCertificatePem: ca.certificate_pem,
      caPrivateKeyPem: ca.private_pkcs8_pem,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(now.getTime() + 365 * DAY_MS),
    });
    if (!pem) throw new ValidationError(['csr must be a PEM-encoded PKCS#10 certificate request signed by its key']);
    return { ...(await register(accountId, pem, audit)), certificatePem: pem, caCertificatePem: ca.certificate_pem };
  }

  /** The account's certificates, newest first. */
  async function list(accountId: number) {
    return deps.db
      .selectFrom('certificates')
      .select(['fingerprint', 'subject', 'not_before', 'not_after', 'revoked_at', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
  }

  /** One page of the account's certificates, newest first, revoked ones included; an unknown account is a 404. */
  async function page(accountId: number, asked: { page: number; pageSize: number }) {
    await deps.accounts.get(accountId);
    return paginate(
      deps.db
        .selectFrom('certificates')
        .select(['fingerprint', 'subject', 'not_before', 'not_after', 'revoked_at', 'created_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('fingerprint'),
      asked,
    );
  }

  async function revoke(fingerprint: string, audit?: ChangeAudit) {
    const normalized = fingerprint.replaceAll(':', '').toLowerCase();
    // The update bumps the access change counter (migration 730); once committed, the answer waits
    // (bounded by the access lease) until every instance that may serve from memory forgot.
    const change = await deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('certificates')
        .set({ revoked_at: deps.clock.now() })
        .where('fingerprint', '=', normalized)
        .where('revoked_at', 'is', null)
        .returning(['fingerprint', 'account_id'])
        .executeTakeFirst();
      if (!row) throw new DomainError('NOT_FOUND', undefined, `No active certificate with fingerprint ${normalized}`);
      await audit?.(trx, { accountId: row.account_id, target: `certificate:${normalized}` });
      return accessChangeNumber(trx);
    });
    await deps.accessChanges?.confirm(change);
  }

  /** Whether this certificate is the account's and not revoked (the sandbox's demo files). */
  async function isActive(fingerprint: string, accountId: number): Promise<boolean> {
    const row = await deps.db
      .selectFrom('certificates')
      .select('fingerprint')
      .where('fingerprint', '=', fingerprint)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  return { register, make, revoke, list, page, signRequest, isActive };
}

export type CertificateService = ReturnType<typeof createCertificateService>;
