import type { Kysely, Transaction as Trx } from 'kysely';
import { isValidCnpj, isValidCpf } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { toDictKey, validatePublicKey, type PublicKeyType } from '../../domain/pix-keys.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { PixNetwork } from '../../network/pix-network.ts';
import { institutionCounterpart, type Institution } from './on-us.ts';
import type { OutgoingPayouts } from './outgoing-payout.ts';
import { createKeyOwners } from './key-owners.ts';
import { holderBeforePaying } from './key-holder.ts';

export interface CashOutInput {
  accountId: number;
  amount: Cents;
  externalId: string;
  description: string | null;
  /**
   * The payee as the payer names it. `document` is required of API callers (the spec's schema); the
   * portal sends null when the directory did not say and the network does not need it.
   */
  details: { key: string; keyType: PublicKeyType; name: string | null; document: string | null };
  scenario: string | null;
  /** Written in the payout's own transaction (the portal's audit record of who sent it). */
  record?: (trx: Trx<DB>, tx: TransactionRow) => Promise<void>;
}

export const isDocument = (s: string) => isValidCpf(s) || isValidCnpj(s);

/** What the portal's confirmation shows of a key's holder; null parts are not known before the payment settles. */
export interface PayeePreview {
  name: string | null;
  document: string | null;
  bank: { ispb: string | null; name: string | null };
  /** The payer must name the holder's CPF or CNPJ (the network cannot find it and needs it to pay). */
  documentRequired: boolean;
}

/**
 * `POST /api/pix/cash-out` (and the portal's payout): a payment to a key the client typed. The key
 * must exist in the directory (a key that does not answers PIX_INVALID_PIX_KEY at once); whether the
 * holder's document matches is for the receiving bank to say, later, as TAX_ID_MISMATCH, and only
 * when the payer named one.
 */
export function createCashOutService(deps: { db: Kysely<DB>; network: PixNetwork; payouts: OutgoingPayouts; institution: Institution }) {
  const keyOwners = createKeyOwners({ db: deps.db });
  async function create(input: CashOutInput): Promise<TransactionRow> {
    const { details } = input;
    const problems: string[] = [];
    const keyCheck = validatePublicKey(details.key, details.keyType);
    if (!keyCheck.ok) problems.push(`details.key is invalid for keyType ${details.keyType}: ${keyCheck.reason}`);
    if (details.document !== null && !isDocument(details.document)) problems.push('details.document must be a valid CPF (11 digits) or CNPJ (14 digits)');
    if (problems.length > 0) throw new ValidationError(problems);
    const dictKey = toDictKey(details.key, details.keyType)!;

    const base = {
      accountId: input.accountId,
      origin: 'cash_out' as const,
      family: 'api' as const,
      externalId: input.externalId,
      amount: input.amount,
      description: input.description,
      pixKey: details.key,
      scenario: input.scenario,
      codes: { duplicate: 'PIX_DUPLICATE_EXTERNAL_ID' as const, insufficient: 'PIX_INSUFFICIENT_BALANCE' as const },
      ...(input.record ? { onCreated: input.record } : {}),
    };
    const ours = await keyOwners.ownerOf(dictKey.normalized);
    if (ours) {
      if (ours.accountId === input.accountId) {
        throw new DomainError('PIX_INVALID_PIX_KEY', { key: details.key }, 'The key belongs to the paying account itself.');
      }
      return deps.payouts.create({
        ...base,
        counterpart: (receiver) => institutionCounterpart(deps.institution, receiver),
        destination: { kind: 'on_us_key', receiverAccountId: ours.accountId, receiverKey: dictKey.normalized, creditorDocument: details.document },
      });
    }
    const found = holderBeforePaying(dictKey, await deps.network.lookupKey(dictKey, { name: details.name, document: details.document }));
    if (!found) throw new DomainError('PIX_INVALID_PIX_KEY', { key: details.key }, 'The key was not found in the PIX key directory.');
    const holder = found.holder;
    if (found.documentRequired && details.document === null && holder.document === null) {
      throw new ValidationError(["details.document is required: the PIX network needs the key holder's CPF or CNPJ to pay this key"]);
    }
    return deps.payouts.create({
      ...base,
      counterpart: {
        name: holder.name ?? details.name,
        document: holder.document ?? details.document,
        bank: { bankISPB: holder.bank.ispb, bankName: holder.bank.name, bankCode: holder.bank.code, accountBranch: holder.branch, accountNumber: holder.account },
      },
      destination: {
        kind: 'network',
        target: { payee: { by: 'key', key: dictKey, document: details.document, holderDocument: holder.document, ispb: holder.bank.ispb, name: details.name } },
      },
    });
  }
  /**
   * Who a key's payment would reach (the portal's confirmation step): the holder's name, document and
   * bank as far as the directory gives them, and whether the payer must name the document; nothing is
   * held or sent.
   */
  async function preview(accountId: number, key: string, keyType: PublicKeyType): Promise<PayeePreview> {
    const keyCheck = validatePublicKey(key, keyType);
    if (!keyCheck.ok) throw new ValidationError([`key is invalid for keyType ${keyType}: ${keyCheck.reason}`]);
    const dictKey = toDictKey(key, keyType)!;
    const ours = await keyOwners.ownerOf(dictKey.normalized);
    if (ours) {
      if (ours.accountId === accountId) throw new DomainError('PIX_INVALID_PIX_KEY', { key }, 'The key belongs to the paying account itself.');
      const holder = await deps.db.selectFrom('accounts').select(['name', 'document']).where('id', '=', ours.accountId).executeTakeFirstOrThrow();
      return { name: holder.name, document: holder.document, bank: { ispb: deps.institution.ispb, name: deps.institution.name }, documentRequired: false };
    }
    const found = holderBeforePaying(dictKey, await deps.network.lookupKey(dictKey));
    if (!found) throw new DomainError('PIX_INVALID_PIX_KEY', { key }, 'The key was not found in the PIX key directory.');
    const { holder } = found;
    return { name: holder.name, document: holder.document, bank: { ispb: holder.bank.ispb, name: holder.bank.name }, documentRequired: found.documentRequired && holder.document === null };
  }

  return { create, preview };
}

export type CashOutService = ReturnType<typeof createCashOutService>;
