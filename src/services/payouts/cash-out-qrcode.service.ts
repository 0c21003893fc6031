import { toBrlNumber } from '../../domain/money.ts';
import type { Kysely } from 'kysely';
import { parseBrCode } from '../../domain/brcode/parse.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { detectDictKey } from '../../domain/pix-keys.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { PixNetwork } from '../../network/pix-network.ts';
import { isDocument } from './cash-out.service.ts';
import { institutionCounterpart, type Institution } from './on-us.ts';
import type { OutgoingPayouts, PayoutRequest } from './outgoing-payout.ts';
import { holderBeforePaying } from './key-holder.ts';

export interface CashOutQrCodeInput {
  accountId: number;
  amount: Cents;
  qrCode: string;
  externalId: string;
  description: string | null;
  name: string | null;
  document: string | null;
  scenario: string | null;
}

/**
 * `POST /api/pix/cash-out-qrcode`: a static code pays its key (on-us when the key is ours); a
 * dynamic code whose location is ours pays that charge on-us; any other dynamic code pays its
 * location's institution through the network.
 */
export function createCashOutQrCodeService(deps: {
  db: Kysely<DB>;
  network: PixNetwork;
  payouts: OutgoingPayouts;
  institution: Institution;
  publicHost: string;
}) {
  const ourLocations = `${deps.publicHost}/qr/v2/`;

  async function create(input: CashOutQrCodeInput): Promise<TransactionRow> {
    if (input.document !== null && !isDocument(input.document)) {
      throw new ValidationError(['document must be a valid CPF (11 digits) or CNPJ (14 digits)']);
    }
    const parsed = parseBrCode(input.qrCode);
    if (!parsed.ok) throw new DomainError('PIX_INVALID_QR_CODE', { reason: parsed.reason }, `The QR code is invalid: ${parsed.reason}`);
    const code = parsed.code;
    if (code.amount !== undefined && code.amount !== input.amount) {
      throw new DomainError('PIX_QR_CODE_AMOUNT_MISMATCH', { qrCodeAmount: toBrlNumber(code.amount), value: toBrlNumber(input.amount as Cents) });
    }
    const base: Omit<PayoutRequest, 'counterpart' | 'destination' | 'pixKey'> = {
      accountId: input.accountId,
      origin: 'cash_out_qrcode',
      family: 'api',
      externalId: input.externalId,
      amount: input.amount,
      description: input.description ?? code.additionalInfo ?? null,
      scenario: input.scenario,
      metadata: code.txid && code.txid !== '***' ? { qrCodeTxid: code.txid } : {},
      codes: { duplicate: 'PIX_QR_CODE_EXTERNAL_ID_IN_USE', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
    };
    const name = input.name ?? code.merchantName;

    if (code.kind === 'dynamic') {
      const url = code.url!;
      if (url.startsWith(ourLocations)) {
        return deps.payouts.create({
          ...base,
          pixKey: null,
          counterpart: institutionCounterpart(deps.institution, { name, document: input.document ?? '' }),
          destination: { kind: 'on_us_charge', url, amount: input.amount },
        });
      }
      return deps.payouts.create({
        ...base,
        pixKey: null,
        counterpart: {
          name,
          document: input.document,
          bank: { bankISPB: null, bankName: null, bankCode: null, accountBranch: null, accountNumber: null },
        },
        // The payee is the code itself: the network pays whoever its location names.
        destination: {
          kind: 'network',
          target: { payee: { by: 'qr_code', qrCode: input.qrCode, location: url, key: null, ispb: null, document: input.document, name, holderDocument: null } },
        },
      });
    }

    const key = detectDictKey(code.key!);
    if (!key) throw new DomainError('PIX_INVALID_PIX_KEY', { key: code.key }, 'The key of the static QR code is not a valid PIX key.');
    const ours = await accountsRepo.byKey(deps.db, key.normalized);
    if (ours) {
      if (ours.accountId === input.accountId) {
        throw new DomainError('PIX_INVALID_PIX_KEY', { key: code.key }, 'The key belongs to the paying account itself.');
      }
      return deps.payouts.create({
        ...base,
        pixKey: key.normalized,
        counterpart: (receiver) => institutionCounterpart(deps.institution, receiver),
        destination: { kind: 'on_us_key', receiverAccountId: ours.accountId, receiverKey: key.normalized, creditorDocument: input.document },
      });
    }
    const found = holderBeforePaying(key, await deps.network.lookupKey(key, { name, document: input.document }));
    if (!found) throw new DomainError('PIX_INVALID_PIX_KEY', { key: code.key }, 'The key was not found in the PIX key directory.');
    const holder = found.holder;
    return deps.payouts.create({
      ...base,
      pixKey: key.normalized,
      counterpart: {
        name: input.name ?? holder.name ?? code.merchantName,
        document: input.document ?? (holder.document || null),
        bank: { bankISPB: holder.bank.ispb, bankName: holder.bank.name, bankCode: holder.bank.code, accountBranch: holder.branch, accountNumber: holder.account },
      },
      destination: {
        kind: 'network',
        target: {
          payee: { by: 'qr_code', qrCode: input.qrCode, location: null, key, ispb: holder.bank.ispb, document: input.document, name: input.name ?? holder.name, holderDocument: holder.document || null },
        },
      },
    });
  }
  return { create };
}
