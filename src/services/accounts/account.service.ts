import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { documentType } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';
import { DEFAULT_LIMITS, type AccountType } from './account-defaults.ts';

export interface FeeInput {
  fixed: Cents;
  percentBp: number;
}

export function createAccountService(deps: { db: Kysely<DB>; clock: Clock }) {
  const { db, clock } = deps;

  async function create(input: { name: string; document: string; type?: AccountType; isDemo?: boolean }): Promise<AccountRow> {
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
      return account;
    });
  }

  async function get(id: number): Promise<AccountRow> {
    const account = Number.isSafeInteger(id) ? await accountsRepo.byId(db, id) : undefined;
    if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${id} not found`);
    return account;
  }

  async function setLimits(id: number, limits: { perTransaction?: Cents; daily?: Cents; nightly?: Cents }): Promise<AccountRow> {
    await get(id);
    const updated = await accountsRepo.update(db, id, {
      ...(limits.perTransaction !== undefined ? { limit_per_transaction: limits.perTransaction } : {}),
      ...(limits.daily !== undefined ? { limit_daily: limits.daily } : {}),
      ...(limits.nightly !== undefined ? { limit_nightly: limits.nightly } : {}),
      updated_at: clock.now(),
    });
    return updated!;
  }

  async function setFees(id: number, fees: { cashIn?: FeeInput; cashOut?: FeeInput }): Promise<AccountRow> {
    await get(id);
    const updated = await accountsRepo.update(db, id, {
      ...(fees.cashIn ? { fee_cash_in_fixed: fees.cashIn.fixed, fee_cash_in_percent_bp: fees.cashIn.percentBp } : {}),
      ...(fees.cashOut ? { fee_cash_out_fixed: fees.cashOut.fixed, fee_cash_out_percent_bp: fees.cashOut.percentBp } : {}),
      updated_at: clock.now(),
    });
    return updated!;
  }

  async function setSplitFrequency(id: number, frequency: 'IMMEDIATE' | 'HOURLY' | 'DAILY'): Promise<AccountRow> {
    await get(id);
    return (await accountsRepo.update(db, id, { split_frequency: frequency, updated_at: clock.now() }))!;
  }

  return { create, get, setLimits, setFees, setSplitFrequency, demo: () => accountsRepo.demo(db) };
}

export type AccountService = ReturnType<typeof createAccountService>;
