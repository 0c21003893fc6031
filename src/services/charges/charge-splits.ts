import type { Kysely, Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Cents } from '../../domain/money.ts';
import { splitDictKey } from '../../domain/pix-keys.ts';
import { nextLocalMidnightUtc } from '../../domain/sao-paulo-time.ts';
import { allocateSplits } from '../../domain/splits.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { StoredSplit } from '../../db/schema/charges.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { AdmitDebit } from '../payouts/outgoing-payout.ts';
import { CHARGE_JOBS } from './charge-jobs.ts';
import { chargesRepo, type ChargeRow } from './charges.repo.ts';

export { SPLIT_FREQUENCIES, type SplitFrequency } from '../../domain/closed-lists.ts';

/** When the non-immediate splits of a charge paid at `paidAt` are paid out. */
export function splitRunAt(frequency: string, paidAt: Date): Date {
  if (frequency === 'IMMEDIATE') return paidAt;
  // São Paulo is a whole number of hours from UTC, so its hours start when UTC hours do.
  if (frequency === 'HOURLY') return new Date(Math.floor(paidAt.getTime() / 3_600_000) * 3_600_000 + 3_600_000);
  return nextLocalMidnightUtc(paidAt);
}

interface SplitJob {
  chargeId: number;
  positions: number[];
}

/**
 * Split payouts of a paid charge (interface spec, cash-in splits): each recipient's share of the
 * gross amount becomes an ordinary payout (WITHDRAW, origin `split`, a `CashOut` event) held from
 * the account and settled by the one settlement path; a key of one of our accounts is paid on-us.
 * The remainder stays. `immediate` splits run right after confirmation, the others at the
 * account's split frequency (default daily at 00:00 São Paulo), all as durable jobs.
 */
export function createChargeSplits(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  scheduler: Scheduler;
  /** The one debit admission (the payouts feature's `admitIn`), in the split job's transaction. */
  admitDebit: AdmitDebit;
  logger: Logger;
}) {
  const { clock, scheduler } = deps;

  async function afterPayment(trx: Trx<DB>, charge: ChargeRow, tx: TransactionRow): Promise<void> {
    const splits = (charge.splits as StoredSplit[] | null) ?? [];
    if (splits.length === 0) return;
    const allocation = allocateSplits(tx.original_amount, splits);
    if ('error' in allocation) {
      // Checked against the same amount at creation; a charge paid with another amount keeps it all.
      deps.logger.warn({ chargeId: charge.id }, 'splits exceed the paid amount; none paid out');
      return;
    }
    const now = clock.now();
    const immediate: number[] = [];
    const later: number[] = [];
    for (const [position, share] of allocation.shares.entries()) {
      if (share <= 0) continue; // a percentage that rounds to nothing pays nothing
      await trx
        .insertInto('charge_split_payouts')
        .values({ charge_id: charge.id, position, amount: share, payout_transaction_id: null, created_at: now })
        .execute();
      (splits[position]!.immediate ? immediate : later).push(position);
    }
    if (immediate.length > 0) await scheduler.schedule(trx, CHARGE_JOBS.splits, now, { chargeId: charge.id, positions: immediate });
    if (later.length > 0) {
      const account = await accountsRepo.byId(trx, charge.account_id);
      const runAt = splitRunAt(account?.split_frequency ?? 'DAILY', now);
      await scheduler.schedule(trx, CHARGE_JOBS.splits, runAt, { chargeId: charge.id, positions: later });
    }
  }

  function counterpartOf(split: StoredSplit, bank: { ispb: string; name: string } | null): Counterpart {
    return {
      name: split.name,
      document: split.document,
      bank: { bankISPB: bank?.ispb ?? null, bankName: bank?.name ?? null, bankCode: null, accountBranch: null, accountNumber: null },
    };
  }

  /**
   * A share paid out through the one debit admission (DEBIT_ORIGIN_RULES.split: no fee, no limits; a
   * share the balance no longer covers is kept as ERROR and announced, never refused): a key of one
   * of our accounts settles on-us by the payouts' one on-us settlement, which checks the holder's
   * document like the receiving bank of any payout would; any other key goes to the network.
   */
  async function payOut(trx: Trx<DB>, charge: ChargeRow, split: StoredSplit, amount: Cents): Promise<TransactionRow> {
    const key = splitDictKey(split.pixKey, split.pixKeyType);
    if (!key) throw new Error(`charge ${charge.id}: split key ${split.pixKey} no longer parses`);
    const receiver = await accountsRepo.byKey(trx, key.normalized);
    return deps.admitDebit(trx, {
      accountId: charge.account_id,
      origin: 'split',
      family: 'api',
      externalId: null,
      amount,
      description: `Split da cobrança ${charge.txid}`,
      pixKey: key.normalized,
      counterpart: counterpartOf(split, receiver ? { ispb: deps.config.institutionIspb, name: deps.config.institutionName } : null),
      scenario: null,
      parentId: charge.transaction_id,
      destination: receiver
        ? { kind: 'on_us_key', receiverAccountId: receiver.accountId, receiverKey: key.normalized, creditorDocument: split.document }
        : { kind: 'network', target: { payee: { by: 'key', key, document: split.document, holderDocument: null, ispb: null, name: split.name } } },
      codes: { duplicate: 'PIX_DUPLICATE_EXTERNAL_ID', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
    });
  }

  /**
   * Every lock the claimed split jobs need, before any runs: their share rows, then every account
   * they move money of (the charges' accounts, the on-us recipients) in id order, in one statement.
   */
  async function lockSplits(trx: Trx<DB>, jobs: Array<{ payload: SplitJob }>): Promise<void> {
    const chargeIds = [...new Set(jobs.map((j) => j.payload.chargeId))];
    if (chargeIds.length === 0) return;
    await trx.selectFrom('charge_split_payouts').select('id').where('charge_id', 'in', chargeIds).orderBy('id').forUpdate().execute();
    const charges = await trx.selectFrom('charges').select(['id', 'account_id', 'splits']).where('id', 'in', chargeIds).execute();
    const keys = charges.flatMap((charge) => {
      const splits = (charge.splits as StoredSplit[] | null) ?? [];
      const positions = jobs.filter((j) => j.payload.chargeId === charge.id).flatMap((j) => j.payload.positions);
      return positions.map((p) => splits[p]).filter((split): split is StoredSplit => split !== undefined).map((split) => splitDictKey(split.pixKey, split.pixKeyType)?.normalized).filter((k): k is string => k !== undefined);
    });
    const receivers = keys.length === 0 ? [] : await trx.selectFrom('account_keys').select('account_id').where('key', 'in', [...new Set(keys)]).execute();
    await accountsRepo.lockInOrder(trx, [...charges.map((c) => c.account_id), ...receivers.map((r) => r.account_id)]);
  }

  scheduler.register<SplitJob>(CHARGE_JOBS.splits, async (trx, job) => {
    const charge = await chargesRepo.byId(trx, job.payload.chargeId);
    if (!charge) return;
    const splits = charge.splits as StoredSplit[];
    for (const position of job.payload.positions) {
      // Locked and checked, so a retried or duplicated job never pays a share twice.
      const row = await trx
        .selectFrom('charge_split_payouts')
        .selectAll()
        .where('charge_id', '=', charge.id)
        .where('position', '=', position)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.payout_transaction_id !== null) continue;
      const payout = await payOut(trx, charge, splits[position]!, row.amount);
      await trx.updateTable('charge_split_payouts').set({ payout_transaction_id: payout.id }).where('id', '=', row.id).execute();
    }
  }, { lock: lockSplits });

  // The payouts feature's hook for origin `split` emits each payout's CashOut event.
  return { afterPayment };
}

export type ChargeSplits = ReturnType<typeof createChargeSplits>;
