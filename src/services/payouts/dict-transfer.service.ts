import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { toBrlNumber, type Cents } from '../../domain/money.ts';
import { detectDictKey } from '../../domain/pix-keys.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { PixNetwork } from '../../network/pix-network.ts';
import type { Idempotency } from '../idempotency/idempotency.service.ts';
import { isDocument } from './cash-out.service.ts';
import { institutionCounterpart, type Institution } from './on-us.ts';
import type { OutgoingPayouts } from './outgoing-payout.ts';
import { holderBeforePaying } from './key-holder.ts';
import type { TransactionStatus } from '../../domain/closed-lists.ts';

export interface DictTransferInput {
  pixKey: string;
  creditorDocument?: string;
  priority?: 'HIGH' | 'NORM';
  description?: string;
  expiration?: number;
  payment: { currency: 'BRL'; amount: Cents };
  ispbDeny?: string[];
  paymentFlow?: string;
}

export const DEFAULT_EXPIRATION_S = 600;
const TYPE = { PENDING: 'PENDING', CONFIRMED: 'COMPLETED', ERROR: 'ERROR' } as const satisfies Record<TransactionStatus, string>;

/** The compatible family's view of a transfer (POST and GET /dict/pix). */
export function transferView(tx: TransactionRow) {
  const meta = (tx.metadata ?? {}) as { idempotencyKey?: string };
  return {
    // The real end-to-end id arrives with settlement; until then the idempotency key stands in (decisions 4.5).
    endToEndId: tx.end_to_end_id ?? meta.idempotencyKey ?? '',
    eventDate: (tx.processed_at ?? tx.created_at).toISOString(),
    id: tx.id,
    payment: { amount: toBrlNumber(tx.original_amount), currency: 'BRL' },
    type: TYPE[tx.status],
    ...(tx.status === 'ERROR' ? { errorCode: tx.error_code, errorMessage: tx.error_message } : {}),
  };
}
export type TransferView = ReturnType<typeof transferView>;

/**
 * `POST /dict/pix`: a direct transfer to a key, found in the directory first (422 when it is not,
 * or when its institution is in `ispbDeny`), idempotent by `x-idempotency-key`, and rejected with
 * PAYMENT_EXPIRED when still queued after `expiration` seconds.
 */
export function createDictTransferService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  network: PixNetwork;
  payouts: OutgoingPayouts;
  idempotency: Idempotency;
  institution: Institution;
}) {
  function check(input: DictTransferInput) {
    const problems: string[] = [];
    const key = detectDictKey(input.pixKey);
    if (!key) problems.push('pixKey must be a CPF (11 digits), CNPJ (14), e-mail, phone as +55 plus area code and number, or an EVP (UUID)');
    if (input.priority === 'HIGH' && input.creditorDocument === undefined) problems.push('creditorDocument is required when priority is HIGH');
    if (input.creditorDocument !== undefined && !isDocument(input.creditorDocument)) {
      problems.push('creditorDocument must be a valid CPF (11 digits) or CNPJ (14 digits)');
    }
    if (problems.length > 0) throw new ValidationError(problems);
    return key!;
  }

  async function create(accountId: number, idempotencyKey: string, input: DictTransferInput, scenario: string | null, rawBody: unknown) {
    const key = check(input);
    return deps.idempotency.run({ scope: 'dict_pix', accountId, key: idempotencyKey.toLowerCase(), body: rawBody }, async (commit) => {
      const deny = new Set(input.ispbDeny ?? []);
      const expiration = input.expiration ?? DEFAULT_EXPIRATION_S;
      const base = {
        accountId,
        origin: 'dict' as const,
        family: 'bacen' as const,
        externalId: null,
        idempotencyKey,
        amount: input.payment.amount,
        description: input.description ?? null,
        pixKey: input.pixKey,
        scenario,
        metadata: {
          idempotencyKey,
          priority: input.priority ?? 'NORM',
          expiration,
          ...(input.paymentFlow !== undefined ? { paymentFlow: input.paymentFlow } : {}),
          ...(input.ispbDeny ? { ispbDeny: input.ispbDeny } : {}),
        },
        codes: { duplicate: 'CONFLICT' as const, insufficient: 'DICT_INSUFFICIENT_BALANCE' as const },
        onCreated: (trx: Parameters<typeof commit>[0], tx: TransactionRow) => commit(trx, 201, transferView(tx)),
      };
      let tx: TransactionRow;
      const ours = await accountsRepo.byKey(deps.db, key.normalized);
      if (ours) {
        if (ours.accountId === accountId) throw new DomainError('UNPROCESSABLE', undefined, 'The key belongs to the paying account itself.');
        if (deny.has(deps.institution.ispb)) throw new DomainError('DICT_ISPB_DENIED', { ispb: deps.institution.ispb });
        tx = await deps.payouts.create({
          ...base,
          counterpart: (receiver) => institutionCounterpart(deps.institution, receiver),
          destination: { kind: 'on_us_key', receiverAccountId: ours.accountId, receiverKey: key.normalized, creditorDocument: input.creditorDocument ?? null },
        });
      } else {
        const found = holderBeforePaying(key, await deps.network.lookupKey(key, { document: input.creditorDocument ?? null }));
        if (!found) throw new DomainError('DICT_KEY_NOT_FOUND', { pixKey: input.pixKey });
        const holder = found.holder;
        if (holder.bank.ispb !== null && deny.has(holder.bank.ispb)) throw new DomainError('DICT_ISPB_DENIED', { ispb: holder.bank.ispb });
        tx = await deps.payouts.create({
          ...base,
          counterpart: {
            name: holder.name,
            document: holder.document || null,
            bank: { bankISPB: holder.bank.ispb, bankName: holder.bank.name, bankCode: holder.bank.code, accountBranch: holder.branch, accountNumber: holder.account },
          },
          destination: {
            kind: 'network',
            target: {
              payee: { by: 'key', key, document: input.creditorDocument ?? null, holderDocument: holder.document || null, ispb: holder.bank.ispb },
              expiresAt: new Date(deps.clock.now().getTime() + expiration * 1000),
            },
          },
        });
      }
      return { status: 201, body: transferView(tx) };
    });
  }

  async function get(accountId: number, id: number): Promise<TransactionRow> {
    const tx = Number.isSafeInteger(id)
      ? await deps.db.selectFrom('transactions').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('origin', '=', 'dict').executeTakeFirst()
      : undefined;
    if (!tx) throw new DomainError('NOT_FOUND', undefined, 'Transfer not found');
    return tx;
  }

  return { create, get };
}
