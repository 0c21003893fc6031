import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { documentType } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { searchAccounts } from '../../db/repos/account-search.repo.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { ReadRouting } from '../../db/read-routing.ts';
import { DEFAULT_LIMITS, type AccountType } from './account-defaults.ts';
import type { AccountStatus, SplitFrequency } from '../../domain/closed-lists.ts';

export interface FeeInput {
  fixed: Cents;
  percentBp: number;
}

/**
 * Records a change in the audit log inside the change's own transaction (issue 14); `before` and
 * `after` are the account rows around it.
 */
export type AccountAudit = (trx: Transaction<DB>, before: AccountRow | undefined, after: AccountRow) => Promise<void>;

export function createAccountService(deps: { db: Kysely<DB>; clock: Clock; /** Operators' lists on the read replica when fresh (read-routing.ts). */ reads?: ReadRouting }) {
  const { db, clock } = deps;

  async function create(input: { name: string; document: string; type?: AccountType; isDemo?: boolean }, audit?: AccountAudit): Promise<AccountRow> {
    const kind = documentType(input.document);
    if (!kind) throw new ValidationError(['document must be a valid CPF (11 digits) or CNPJ (14 characters)']);
    const type: AccountType = input.type ?? (kind === 'CPF' ? 'INDIVIDUAL' : 'COMPANY');
    const limits = DEFAULT_LIMITS[type];
    const now = clock.now();
    const evp = newUuidV4();
    return db.transaction().execute(async (trx) => {
      const account = await accountsRepo.insert(trx, {
        name: input.name,
        document: input.document,
        type,
        pix_key: evp,
        limit_per_transaction: limits.perTransaction,
        limit_daily: limits.daily,
        limit_nightly: limits.nightly,
        is_demo: input.isDemo ?? false,
        created_at: now,
        updated_at: now,
      });
      await accountsRepo.addKey(trx, account.id, evp, 'EVP', now);
      await audit?.(trx, undefined, account);
      return account;
    });
  }

  async function get(id: number): Promise<AccountRow> {
    const account = Number.isSafeInteger(id) ? await accountsRepo.byId(db, id) : undefined;
    if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${id} not found`);
    return account;
  }

  /** Updates the account and records the change (when audited) in one transaction, the row locked. */
  async function change(id: number, values: Parameters<typeof accountsRepo.update>[2], audit?: AccountAudit): Promise<AccountRow> {
    await get(id);
    return db.transaction().execute(async (trx) => {
      const before = await accountsRepo.byIdForUpdate(trx, id);
      const updated = (await accountsRepo.update(trx, id, values))!;
      await audit?.(trx, before, updated);
      return updated;
    });
  }

  async function setLimits(id: number, limits: { perTransaction?: Cents; daily?: Cents; nightly?: Cents }, audit?: AccountAudit): Promise<AccountRow> {
    return change(id, {
      ...(limits.perTransaction !== undefined ? { limit_per_transaction: limits.perTransaction } : {}),
      ...(limits.daily !== undefined ? { limit_daily: limits.daily } : {}),
      ...(limits.nightly !== undefined ? { limit_nightly: limits.nightly } : {}),
      updated_at: clock.now(),
    }, audit);
  }

  async function setFees(id: number, fees: { cashIn?: FeeInput; cashOut?: FeeInput }, audit?: AccountAudit): Promise<AccountRow> {
    return change(id, {
      ...(fees.cashIn ? { fee_cash_in_fixed: fees.cashIn.fixed, fee_cash_in_percent_bp: fees.cashIn.percentBp } : {}),
      ...(fees.cashOut ? { fee_cash_out_fixed: fees.cashOut.fixed, fee_cash_out_percent_bp: fees.cashOut.percentBp } : {}),
      updated_at: clock.now(),
    }, audit);
  }

  async function setSplitFrequency(id: number, frequency: SplitFrequency, audit?: AccountAudit): Promise<AccountRow> {
    return change(id, { split_frequency: frequency, updated_at: clock.now() }, audit);
  }

  /** Renames the account (PATCH /admin/accounts/{id}); the document, type and keys never change. */
  async function rename(id: number, name: string, audit?: AccountAudit): Promise<AccountRow> {
    return change(id, { name, updated_at: clock.now() }, audit);
  }

  /**
   * Suspends or reactivates the account (issue 30). Idempotent: the same status again changes
   * nothing and records nothing. `audit` is called only for a real change, in its transaction.
   */
  async function setStatus(id: number, status: AccountStatus, audit?: (trx: Transaction<DB>, before: AccountRow) => Promise<void>): Promise<AccountRow> {
    await get(id);
    return db.transaction().execute(async (trx) => {
      const before = (await accountsRepo.byIdForUpdate(trx, id))!;
      if (before.status === status) return before;
      const updated = (await accountsRepo.update(trx, id, { status, updated_at: clock.now() }))!;
      await audit?.(trx, before);
      return updated;
    });
  }

  /** Operators' search (GET /admin/accounts): by name, document, id or PIX key, one page at a time. */
  const search = (q: string | undefined, asked: { page: number; pageSize: number }) =>
    deps.reads ? deps.reads.run('operators', (reader) => searchAccounts(reader, q, asked)) : searchAccounts(db, q, asked);

  return { create, get, search, setLimits, setFees, setSplitFrequency, rename, setStatus, demo: () => accountsRepo.demo(db) };
}

export type AccountService = ReturnType<typeof createAccountService>;
