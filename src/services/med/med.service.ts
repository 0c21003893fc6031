import type { Kysely, Transaction as Trx } from 'kysely';
import { MED_EVENT_NAME_OF } from '../../domain/closed-lists.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import { cents } from '../../domain/money.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { refundsRepo } from '../refunds/refunds.repo.ts';
import { remainingRefundable } from '../refunds/refund-rules.ts';
import type { InfractionNotice } from '../../network/infractions.ts';
import type { InfractionReport, InfractionUpdate } from './infraction-feed.ts';
import { MED_CAUSES, type MedCause } from './med-causes.ts';
import { refundNatureOf } from './med-causes.ts';
import { findMedMove, type MedMove } from './med-state-machine.ts';
import { medView, type MedView } from './med-view.ts';
import { medsRepo, type MedFilter, type MedRow } from './meds.repo.ts';
import { transact } from '../../db/transact.ts';
import type { AdmitBlock, AdmitDebit } from '../payouts/outgoing-payout.ts';
import { MED_ANALYSIS_RESULTS, MED_STATUSES } from '../../domain/closed-lists.ts';

/**
 * MED (decisions 4.6). Opening blocks, as a precaution, up to the disputed amount of what is
 * available (through the one debit admission, as a block: docs/decisions.md "MED opening block
 * through the admission"); APPROVED returns the blocked money to the requesting bank as a "Refund
 * in" (counted in the original's refunded amount, never above it); REJECTED and CANCELLED release
 * the block. Each command is one database transaction with its ledger moves and events.
 */
export function createMedService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  outbox: Outbox;
  institution: { ispb: string; name: string };
  /** The one debit admission (the payouts' `admitIn`): an approved MED's return goes through it. */
  admitDebit: AdmitDebit;
  /** The same admission's block (the payouts' `blockIn`): a MED's opening block goes through it. */
  admitBlock: AdmitBlock;
}) {
  const view = (med: MedRow, original: TransactionRow | undefined) => medView(med, original, deps.institution);

  async function open(report: InfractionReport, options: { requireReconciled: boolean }): Promise<MedView> {
    const now = deps.clock.now();
    return transact(deps.db, async (trx) => {
      const found = await refundsRepo.receivedByEndToEndId(trx, report.accountId, report.endToEndId);
      const original = found?.status === 'CONFIRMED' ? found : undefined;
      // The network reported this infraction before: the MED it opened then (the unique index settles a race).
      if (report.reference !== undefined) {
        const known = await trx.selectFrom('meds').selectAll().where('network_reference', '=', report.reference).executeTakeFirst();
        if (known) return view(known, known.original_id === null ? undefined : await transactionsRepo.byId(trx, known.original_id));
      }
      if (!original && options.requireReconciled) {
        throw new DomainError('NOT_FOUND', undefined, 'No received PIX of this account has that endToEndId');
      }
      if (original && report.amount !== undefined && report.amount > original.original_amount) {
        throw new ValidationError(['amount must not be above the amount of the disputed PIX']);
      }
      const disputed = report.amount ?? original?.original_amount;
      if (disputed === undefined) throw new ValidationError(['amount is required when the PIX is not a local transaction']);
      const payerBank = (original?.counterpart as Counterpart | null | undefined)?.bank;
      const requestingBank = report.requestingBank ?? {
        ispb: payerBank?.bankISPB ?? '00000000',
        name: payerBank?.bankName ?? 'Instituição solicitante',
      };
      // The opening block goes through the one admission (BLOCK_ORIGIN_RULES.med_block): it locks the
      // account in the one lock order, holds min(asked, available) under that lock (exact under
      // concurrency), posted against the original, and answers what it held. Never more than is still
      // refundable; a suspended account's money is blocked too (the network's measure).
      const blocked = original
        ? await deps.admitBlock(trx, { origin: 'med_block', accountId: report.accountId, amount: cents(Math.min(disputed, remainingRefundable(original))), transactionId: original.id })
        : cents(0);
      const med = await medsRepo.insert(trx, {
        account_id: report.accountId,
        end_to_end_id: report.endToEndId,
        original_id: original?.id ?? null,
        status: 'OPEN',
        reason: 'REFUND_REQUEST',
        cause: report.cause,
        description: report.description,
        analysis_result: null,
        analysis_details: null,
        requesting_bank_ispb: requestingBank.ispb,
        requesting_bank_name: requestingBank.name,
        disputed_amount: disputed,
        blocked_amount: blocked,
        refund_transaction_id: null,
        network_reference: report.reference ?? null,
        created_at: now,
        updated_at: now,
      });
      const result = view(med, original);
      await deps.outbox.emit(trx, { accountId: report.accountId, type: 'med_created', transactionId: null, payload: { event: MED_EVENT_NAME_OF.med_created, med: result } });
      return result;
    });
  }

  /** APPROVED: what is blocked (never above what is still refundable) leaves as a settled refund. */
  async function refundBlocked(trx: Trx<DB>, med: MedRow, now: Date): Promise<number | null> {
    if (med.blocked_amount === 0 || med.original_id === null) return null;
    const original = (await transactionsRepo.byIdForUpdate(trx, med.original_id))!;
    const amount = cents(Math.min(med.blocked_amount, remainingRefundable(original)));
    const rest = cents(med.blocked_amount - amount);
    if (rest > 0) await deps.ledger.releaseOne(trx, { accountId: med.account_id, amount: rest, transactionId: original.id, reason: 'med_release' });
    if (amount === 0) return null;
    if ((await refundsRepo.reserve(trx, original.id, amount)) === undefined) throw new Error('MED refund reservation failed under lock');
    const natureza = refundNatureOf(med.cause);
    const rtrId = endToEndId('D', deps.institution.ispb, now);
    // The one debit admission (DEBIT_ORIGIN_RULES.med: the money is the MED's block, so no balance check
    // and no second hold; no fee, no limits), settled at once against the MED clearing account.
    const tx = await deps.admitDebit(trx, {
      accountId: med.account_id,
      origin: 'med',
      family: 'api',
      externalId: null,
      amount,
      description: med.description,
      pixKey: null,
      counterpart: original.counterpart as Counterpart,
      scenario: null,
      endToEndId: rtrId,
      parentId: original.id,
      destination: { kind: 'clearing', counter: 'med_clearing' },
      codes: { duplicate: 'PIX_REFUND_DUPLICATE_EXTERNAL_ID', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
    });
    if (tx.status !== 'CONFIRMED') throw new Error(`MED refund ${tx.id} not settled: ${tx.status}`);
    await refundsRepo.insertUnlessIdUsed(trx, {
      transaction_id: tx.id,
      original_id: original.id,
      account_id: med.account_id,
      refund_id: `MED${med.id}`,
      rtr_id: rtrId,
      natureza,
      description: med.description,
      created_at: now,
    });
    return tx.id;
  }

  async function applyEffect(trx: Trx<DB>, move: MedMove, med: MedRow, now: Date): Promise<number | null> {
    if (move.effect === 'refund') return refundBlocked(trx, med, now);
    if (move.effect === 'release' && med.blocked_amount > 0) {
      await deps.ledger.releaseOne(trx, { accountId: med.account_id, amount: cents(med.blocked_amount), transactionId: med.original_id, reason: 'med_release' });
    }
    return null;
  }

  async function transition(update: InfractionUpdate): Promise<MedView> {
    const result = update.analysisResult ?? null;
    if (update.to === 'ANALYZED' && result === null) throw new ValidationError(['analysisResult is required when moving to ANALYZED']);
    if (update.to !== 'ANALYZED' && result !== null) throw new ValidationError(['analysisResult is only allowed when moving to ANALYZED']);
    const now = deps.clock.now();
    return transact(deps.db, async (trx) => {
      const med = await medsRepo.byIdForUpdate(trx, update.accountId, update.medId);
      if (!med) throw new DomainError('NOT_FOUND', undefined, `MED ${update.medId} not found`);
      const move = findMedMove(med.status, update.to, result);
      if (!move) {
        throw new DomainError('MED_INVALID_TRANSITION', { from: med.status, to: update.to }, `A MED in ${med.status} cannot move to ${update.to}`);
      }
      const refundTransactionId = await applyEffect(trx, move, med, now);
      const moved = await medsRepo.update(trx, med.id, med.status, {
        status: move.to,
        // The requesting bank withdrawing its request is a refund cancellation.
        reason: move.to === 'CANCELLED' ? 'REFUND_CANCELLATION' : med.reason,
        analysis_result: result,
        analysis_details: update.analysisDetails ?? med.analysis_details,
        blocked_amount: move.effect === 'none' ? med.blocked_amount : cents(0),
        refund_transaction_id: refundTransactionId,
        updated_at: now,
      });
      if (!moved) throw new Error(`MED ${med.id} changed under its row lock`);
      const original = med.original_id === null ? undefined : await transactionsRepo.byId(trx, med.original_id);
      const medResult = view(moved, original);
      if (move.event) {
        const name = MED_EVENT_NAME_OF[move.event];
        await deps.outbox.emit(trx, { accountId: med.account_id, type: move.event, transactionId: refundTransactionId, payload: { event: name, med: medResult } });
      }
      return medResult;
    });
  }

  async function list(accountId: number, filter: MedFilter, page: number, pageSize: number) {
    const { rows, total } = await medsRepo.page(deps.db, accountId, filter, page, pageSize);
    const originals = await medsRepo.originals(deps.db, rows.map((r) => r.original_id).filter((id): id is number => id !== null));
    return {
      data: rows.map((r) => view(r, r.original_id === null ? undefined : originals.get(r.original_id))),
      metadata: { total, page, pageSize, totalPages: Math.ceil(total / pageSize) },
    };
  }

  const STATUSES = MED_STATUSES;
  const RESULTS = MED_ANALYSIS_RESULTS;
  /**
   * The network's notices, judged like any other input: unknown codes are refused, never guessed.
   * A provider may report infractions on PIX this service does not know: they are kept,
   * unreconciled. The simulator disputes only PIX the account received (`requireReconciled`).
   */
  const sink = (options: { requireReconciled: boolean }) => ({
    onInfractionReported: (notice: InfractionNotice & { accountId: number }) => {
      if (notice.cause !== null && !(MED_CAUSES as readonly string[]).includes(notice.cause)) {
        throw new ValidationError([`cause must be one of: ${MED_CAUSES.join(', ')}`]);
      }
      return open({ ...notice, cause: notice.cause as MedCause | null }, options);
    },
    onInfractionUpdated: (update: { accountId: number; medId: number; to: string; analysisResult?: string; analysisDetails?: string }) => {
      if (!(STATUSES as readonly string[]).includes(update.to)) throw new ValidationError([`to must be one of: ${STATUSES.join(', ')}`]);
      if (update.analysisResult !== undefined && !(RESULTS as readonly string[]).includes(update.analysisResult)) {
        throw new ValidationError([`analysisResult must be one of: ${RESULTS.join(', ')}`]);
      }
      return transition({
        accountId: update.accountId,
        medId: update.medId,
        to: update.to as (typeof STATUSES)[number],
        ...(update.analysisResult !== undefined ? { analysisResult: update.analysisResult as (typeof RESULTS)[number] } : {}),
        ...(update.analysisDetails !== undefined ? { analysisDetails: update.analysisDetails } : {}),
      });
    },
  });

  return { open, transition, list, sink };
}

export type MedService = ReturnType<typeof createMedService>;
