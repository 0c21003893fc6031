import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { prepared } from '../../db/prepared.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { chargeBrCode } from '../../domain/brcode/charge-code.ts';
import type { Clock } from '../../domain/clock.ts';
import { isValidCnpj, isValidCpf } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { parseScenario, SCENARIO_REJECTIONS, type ScenarioOperation } from '../../domain/sandbox-scenarios.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { InfractionNotice, InfractionNoticeUpdate } from '../infractions.ts';
import type {
  NetworkSink,
  Payer,
  PaymentOrder,
  PaymentStatus,
  PixNetwork,
  SubmitAnswer,
} from '../pix-network.ts';
import { bankByIspb } from '../../domain/banks.ts';
import { DEFAULT_PAYER } from '../default-payer.ts';
import { createSandboxKeyDirectory, isNotFoundKey } from './key-directory.ts';


/** The simulator: the port, plus the calls by which the sandbox routes drive the rest of the network. */
export interface SandboxNetwork extends PixNetwork {
  /** The one sink; its handlers of money moving answer the transaction they wrote (what the sandbox routes show). */
  subscribe(sink: NetworkSink<TransactionRow>): void;
  /** A payer at another bank pays a charge now (`POST /sandbox/charges/{id}/pay`). */
  payCharge(accountId: number, id: string, input: { amount?: Cents; payer?: Payer }): Promise<TransactionRow>;
  /** A PIX to the account's key with no charge (`POST /sandbox/deposits`). */
  sendPix(accountId: number, amount: Cents, payer?: Payer): Promise<TransactionRow>;
  /** The receiving bank returns part or all of a payout (`POST /sandbox/payouts/{id}/refund`). */
  returnPayout(accountId: number, payout: string, amount: Cents): Promise<TransactionRow>;
  /** Another bank opens a MED (`POST /sandbox/med`), or moves one along (`/sandbox/med/{id}/transition`). */
  reportInfraction(notice: InfractionNotice & { accountId: number }): Promise<unknown>;
  updateInfraction(update: InfractionNoticeUpdate & { accountId: number; medId: number }): Promise<unknown>;
}

/** The simulated payer of a charge, due after the settlement delay (a step job of the simulator). */
const CHARGE_OUTCOME = 'sandbox.charge_outcome';
type ChargeOutcomeJob = { reference: string; endToEndId: string; errorCode?: string; errorMessage?: string };

const EXPIRED = { errorCode: 'PAYMENT_EXPIRED', errorMessage: 'O pagamento expirou antes de ser processado.' };

/**
 * The simulated network. Outcomes come from each payment's scenario (decisions 4.9) after the
 * settlement delay counted from when it was ordered, and from the key directory (4.10). It keeps
 * its own books (migration 700): each payment once per reference (a repeated submission pays
 * nothing more; its status is asked by reference) and the charges registered with it, whose
 * simulated payer pays (or is refused) through the sink, as a provider's notice would arrive.
 */
export function createSandboxNetwork(deps: {
  db: Kysely<DB>;
  clock: Clock;
  scheduler: Scheduler;
  settlementDelayMs: number;
  institutionIspb: string;
  publicHost: string;
  minChargeExpirationSeconds: number;
}): SandboxNetwork {
  let sink: NetworkSink<TransactionRow> | undefined;
  const subscribed = (): NetworkSink<TransactionRow> => {
    if (!sink) throw new Error('no sink subscribed to the sandbox network');
    return sink;
  };

  const operationOf = (kind: string): ScenarioOperation => (kind === 'refund' ? 'refund_in' : 'cash_out');

  function dueAt(orderedAt: Date, scenario: string | null, operation: ScenarioOperation): Date {
    const parsed = parseScenario(scenario ?? undefined, operation);
    const extra = parsed.outcome === 'settle' ? parsed.extraDelaySeconds * 1000 : 0;
    return new Date(orderedAt.getTime() + deps.settlementDelayMs + extra);
  }

  type Stored = { kind: string; payee: Record<string, unknown>; scenario: string | null; ordered_at: Date; expires_at: Date | null; end_to_end_id: string };

  /** When the network answers; a payment still queued at its expiry is rejected then. */
  function answerAt(row: Stored): Date {
    const due = dueAt(row.ordered_at, row.scenario, operationOf(row.kind));
    return row.expires_at && row.expires_at < due ? row.expires_at : due;
  }

  function statusOf(row: Stored): PaymentStatus {
    const due = dueAt(row.ordered_at, row.scenario, operationOf(row.kind));
    const now = deps.clock.now();
    if (row.expires_at && row.expires_at < due) {
      return now >= row.expires_at ? { status: 'rejected', ...EXPIRED } : { status: 'pending', checkAt: row.expires_at };
    }
    if (now < due) return { status: 'pending', checkAt: due };
    const scenario = parseScenario(row.scenario ?? undefined, operationOf(row.kind));
    if (scenario.outcome === 'reject') return { status: 'rejected', errorCode: scenario.errorCode, errorMessage: scenario.errorMessage };
    const payee = row.payee as { key?: { type: string; normalized: string } | null; document?: string | null; holderDocument?: string | null };
    if (payee.key) {
      if (isNotFoundKey(payee.key as never)) return { status: 'rejected', ...SCENARIO_REJECTIONS['error:invalid-pix-key'] };
      if (payee.holderDocument && payee.document && payee.holderDocument !== payee.document) {
        return { status: 'rejected', ...SCENARIO_REJECTIONS['error:document-mismatch'] };
      }
    }
    return { status: 'settled', endToEndId: row.end_to_end_id };
  }

  async function storedPayments(references: string[]): Promise<Map<string, Stored>> {
    if (references.length === 0) return new Map();
    const rows = await sql<Stored & { reference: string }>`
      ${prepared('sandbox_payment_statuses')}SELECT * FROM sandbox_network_payments WHERE reference = ANY (${references}::text[])`.execute(deps.db);
    return new Map(rows.rows.map((r) => [r.reference, r]));
  }

  function checkPayer(payer: Payer): void {
    const problems: string[] = [];
    if (!isValidCpf(payer.document) && !isValidCnpj(payer.document)) problems.push('payer.document must be a valid CPF or CNPJ');
    if (!bankByIspb(payer.ispb)) problems.push('payer.ispb must be the ISPB of a known PIX participant');
    if (problems.length > 0) throw new ValidationError(problems);
  }

  // The simulated payer: delivers its notice; a charge our side never stored (its creation failed
  // after registering) is let go after a few tries.
  deps.scheduler.registerStep<ChargeOutcomeJob, 'delivered'>(CHARGE_OUTCOME, {
    maxAttempts: 5,
    async call(jobs) {
      for (const job of jobs) {
        const p = job.payload;
        try {
          if (p.errorCode) await subscribed().onChargeRejected(p.reference, p.errorCode, p.errorMessage ?? p.errorCode);
          else await subscribed().onChargePaid({ charge: { reference: p.reference }, payer: DEFAULT_PAYER, endToEndId: p.endToEndId });
        } catch (error) {
          // Paid by someone else, cancelled or expired meanwhile: the simulated payer simply does not pay.
          if (error instanceof DomainError && error.code === 'CHARGE_NOT_PAYABLE') continue;
          if (error instanceof DomainError && error.code === 'NOT_FOUND' && job.attempt >= 3) continue;
          throw error;
        }
      }
      return jobs.map(() => 'delivered' as const);
    },
    async record() {},
  });

  return {
    ledgerAccount: 'network:sandbox',
    chargeRules: { provider: 'sandbox', minExpirationSeconds: deps.minChargeExpirationSeconds },
    lookupKey: createSandboxKeyDirectory(deps.db),

    subscribe(s) {
      sink = s;
    },

    async submitPayments(orders: PaymentOrder[]): Promise<SubmitAnswer[]> {
      if (orders.length === 0) return [];
      const now = deps.clock.now();
      // Once per reference: a repeated submission keeps the first one's terms and pays nothing more.
      // One statement: the new rows, and the ones a repeated reference already had.
      const rows = orders.map((o) => ({
        reference: o.reference,
        kind: o.kind,
        amount: o.amount,
        payee: o.payee,
        scenario: o.scenario,
        ordered_at: o.orderedAt.toISOString(),
        expires_at: o.expiresAt?.toISOString() ?? null,
        end_to_end_id: endToEndId('E', deps.institutionIspb, o.orderedAt),
      }));
      const result = await sql<Stored & { reference: string }>`
        ${prepared('sandbox_submit_payments')}WITH input AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS x (reference text, kind text, amount bigint, payee jsonb, scenario text, ordered_at timestamptz, expires_at timestamptz, end_to_end_id text)),
        added AS (
          INSERT INTO sandbox_network_payments (reference, kind, amount, payee, scenario, ordered_at, expires_at, submitted_at, end_to_end_id)
          SELECT reference, kind, amount, payee, scenario, ordered_at, expires_at, ${now}::timestamptz, end_to_end_id FROM input
          ON CONFLICT (reference) DO NOTHING
          RETURNING reference, kind, payee, scenario, ordered_at, expires_at, end_to_end_id)
        SELECT * FROM added
        UNION ALL
        SELECT p.reference, p.kind, p.payee, p.scenario, p.ordered_at, p.expires_at, p.end_to_end_id
          FROM sandbox_network_payments p JOIN input i ON i.reference = p.reference
         WHERE p.reference NOT IN (SELECT reference FROM added)`.execute(deps.db);
      const stored = new Map(result.rows.map((r) => [r.reference, r]));
      return orders.map((o) => ({ status: 'accepted', checkAt: answerAt(stored.get(o.reference)!) }));
    },

    async paymentStatuses(orders: PaymentOrder[]): Promise<PaymentStatus[]> {
      const stored = await storedPayments(orders.map((o) => o.reference));
      return orders.map((o) => {
        const row = stored.get(o.reference);
        return row ? statusOf(row) : { status: 'not_found' };
      });
    },

    async registerCharge(order) {
      const scenario = parseScenario(order.scenario ?? undefined, order.kind);
      const registeredAt = deps.clock.now();
      await deps.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('sandbox_network_charges')
          .values({ reference: order.reference, amount: order.amount, scenario: order.scenario, registered_at: registeredAt })
          .onConflict((oc) => oc.column('reference').doNothing())
          .returning('reference')
          .executeTakeFirst();
        if (!inserted || scenario.outcome === 'wait') return;
        const delayMs = deps.settlementDelayMs + (scenario.outcome === 'settle' ? scenario.extraDelaySeconds * 1000 : 0);
        const job: ChargeOutcomeJob = {
          reference: order.reference,
          endToEndId: endToEndId('E', DEFAULT_PAYER.ispb, registeredAt),
          ...(scenario.outcome === 'reject' ? { errorCode: scenario.errorCode, errorMessage: scenario.errorMessage } : {}),
        };
        await deps.scheduler.schedule(trx, CHARGE_OUTCOME, new Date(registeredAt.getTime() + delayMs), { ...job });
      });
      return { pixCode: chargeBrCode({ publicHost: deps.publicHost, locationId: order.locationId, amount: order.amount, merchantName: order.receiver.name }) };
    },

    async payCharge(accountId, id, input) {
      const payer = input.payer ?? DEFAULT_PAYER;
      checkPayer(payer);
      return subscribed().onChargePaid({
        charge: { accountId, id },
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        payer,
        endToEndId: endToEndId('E', payer.ispb, deps.clock.now()),
      });
    },

    async sendPix(accountId, amount, payer = DEFAULT_PAYER) {
      checkPayer(payer);
      return subscribed().onPixReceived({ accountId, amount, payer, endToEndId: endToEndId('E', payer.ispb, deps.clock.now()), minted: true });
    },

    async returnPayout(accountId, payout, amount) {
      const returned = await subscribed().onPayoutReturned({ payout: { accountId, id: payout }, amount });
      if (!returned) throw new DomainError('NOT_FOUND', undefined, `Payout ${payout} not found`);
      return returned;
    },
    async reportInfraction(notice) {
      return subscribed().onInfractionReported(notice);
    },
    async updateInfraction(update) {
      return subscribed().onInfractionUpdated(update);
    },
  };
}

/** Counts what the simulated network paid per reference (tests: a retried submission pays once). */
export async function sandboxPaymentsOf(db: Kysely<DB>, references: string[]): Promise<number> {
  if (references.length === 0) return 0;
  const row = await sql<{ n: string | number }>`SELECT count(*) AS n FROM sandbox_network_payments WHERE reference IN (${sql.join(references)})`.execute(db);
  return Number(row.rows[0]!.n);
}
