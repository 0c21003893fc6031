import type { DictKey } from '../../domain/pix-keys.ts';
import { isUuidV4 } from '../../domain/ids.ts';
import { centsFromNumber, toBrlNumber, type Cents } from '../../domain/money.ts';
import type { PayeeReport, Payer, PaymentOrder, PaymentStatus, SubmitAnswer } from '../pix-network.ts';
import { errorCodeOf, errorMessageOf } from './provider-api.ts';
import type { HttpAnswer } from './http-client.ts';
import type { CashOutQrCodeRequest, CashOutRequest, NoticeCounterpart, ProviderErrorBody, ProviderKeyType, RefundInRequest, TransactionPoll } from './types.ts';

/**
 * Pure translations between the port (our orders, cents, DICT keys) and the provider's API (its
 * routes, BRL numbers, its key types and codes). No I/O here: src/network/provider/provider-network.ts
 * sends what these build and maps what comes back through them.
 */

type Rejection = { errorCode: string; errorMessage: string };

/** Refusals the adapter gives itself, before or instead of the provider's own words. */
export const ADAPTER_REJECTIONS = {
  documentRequired: {
    errorCode: 'PROVIDER_DOCUMENT_REQUIRED',
    errorMessage: 'O provedor exige o CPF ou CNPJ do titular da chave para pagá-la.',
  },
  originalNotFound: {
    errorCode: 'PROVIDER_ORIGINAL_NOT_FOUND',
    errorMessage: 'O provedor não encontrou o PIX recebido que seria devolvido.',
  },
  expired: { errorCode: 'PAYMENT_EXPIRED', errorMessage: 'O pagamento expirou antes de ser processado.' },
  /** The status query says ERROR but, unlike the notice, carries no reason. */
  failedWithoutReason: {
    errorCode: 'ORDER_REJECTED',
    errorMessage: 'O provedor informou que o pagamento não foi realizado, sem informar o motivo na consulta.',
  },
} as const satisfies Record<string, Rejection>;

/** A DICT key in the provider's words: CPF/CNPJ are DOCUMENT, EVP is RANDOM, a phone loses +55. */
export function providerKeyOf(key: DictKey): { key: string; keyType: ProviderKeyType } {
  switch (key.type) {
    case 'CPF':
    case 'CNPJ':
      return { key: key.normalized, keyType: 'DOCUMENT' };
    case 'EMAIL':
      return { key: key.normalized, keyType: 'EMAIL' };
    case 'PHONE':
      return { key: key.normalized.replace(/^\+55/, ''), keyType: 'PHONE' };
    case 'EVP':
      return { key: key.normalized, keyType: 'RANDOM' };
  }
}

/** A refund's externalId at the provider must be 1-35 letters and digits: our UUID without its hyphens. */
export const refundExternalIdOf = (reference: string) => reference.replaceAll('-', '');

/** Our reference back from a refund's externalId (undefined when it is not one of ours). */
export function referenceOfRefundExternalId(externalId: string | null | undefined): string | undefined {
  if (typeof externalId !== 'string' || !/^[0-9a-f]{32}$/i.test(externalId)) return undefined;
  const h = externalId.toLowerCase();
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return isUuidV4(uuid) ? uuid : undefined;
}

/** The externalId the provider knows an order by (its idempotency key). */
export const externalIdOf = (order: Pick<PaymentOrder, 'reference' | 'kind'>) => (order.kind === 'refund' ? refundExternalIdOf(order.reference) : order.reference);

const clip = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : undefined);

export type PaymentRequest =
  | { route: 'cash_out'; path: '/api/pix/cash-out'; body: CashOutRequest }
  | { route: 'cash_out_qrcode'; path: '/api/pix/cash-out-qrcode'; body: CashOutQrCodeRequest }
  /** The path needs the provider's id of the original, found by its end-to-end id. */
  | { route: 'refund_in'; originalEndToEndId: string; body: RefundInRequest }
  | { route: 'reject'; rejection: Rejection };

/** What to send the provider for an order, or why the adapter refuses it without asking. */
export function paymentRequestOf(order: PaymentOrder, now: Date): PaymentRequest {
  if (order.expiresAt && order.expiresAt <= now) return { route: 'reject', rejection: ADAPTER_REJECTIONS.expired };
  const value = toBrlNumber(order.amount);
  const description = clip(order.description, 140);
  const payee = order.payee;
  switch (payee.by) {
    case 'key': {
      const document = payee.document ?? payee.holderDocument;
      if (!document) return { route: 'reject', rejection: ADAPTER_REJECTIONS.documentRequired };
      return {
        route: 'cash_out',
        path: '/api/pix/cash-out',
        body: {
          value,
          externalId: order.reference,
          ...(description ? { description } : {}),
          // `name` is informational at the provider; the receiving bank checks the document.
          details: { ...providerKeyOf(payee.key), name: clip(payee.name, 100) ?? 'Recebedor', document },
        },
      };
    }
    case 'qr_code': {
      const name = clip(payee.name, 100);
      const document = payee.document ?? payee.holderDocument;
      return {
        route: 'cash_out_qrcode',
        path: '/api/pix/cash-out-qrcode',
        body: { value, qrCode: payee.qrCode, externalId: order.reference, ...(description ? { description } : {}), ...(name ? { name } : {}), ...(document ? { document } : {}) },
      };
    }
    case 'refund':
      return {
        route: 'refund_in',
        originalEndToEndId: payee.originalEndToEndId,
        body: { refundValue: value, externalId: refundExternalIdOf(order.reference), ...(clip(payee.reason, 255) ? { reason: clip(payee.reason, 255)! } : {}) },
      };
  }
}

/** A code that says "this externalId was used": the provider already has the payment. */
const isDuplicate = (status: number, code: string | undefined) => status === 409 || (code !== undefined && /DUPLICATE_EXTERNAL_ID$/.test(code));

/** The provider's answer to a submission: taken (or taken before), or refused for good with its code. */
export function submitAnswerOf(answer: HttpAnswer, checkAt: Date): Extract<SubmitAnswer, { status: 'accepted' | 'rejected' }> {
  if (answer.status >= 200 && answer.status < 300) return { status: 'accepted', checkAt };
  const body = answer.body as ProviderErrorBody | undefined;
  const code = errorCodeOf(body);
  if (isDuplicate(answer.status, code)) return { status: 'accepted', checkAt };
  return { status: 'rejected', errorCode: code ?? `PROVIDER_HTTP_${answer.status}`, errorMessage: errorMessageOf(body, `O provedor recusou o pagamento (HTTP ${answer.status}).`) };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Who received a payment, from a notice's counterpart; undefined when it names nobody. */
export function payeeOf(counterpart: NoticeCounterpart | null | undefined): PayeeReport | undefined {
  const payee: PayeeReport = {
    name: text(counterpart?.name),
    document: text(counterpart?.document),
    bank: { ispb: text(counterpart?.bank?.bankISPB), name: text(counterpart?.bank?.bankName), code: text(counterpart?.bank?.bankCode) },
  };
  const says = [payee.name, payee.document, payee.bank.ispb, payee.bank.name, payee.bank.code].some((v) => v !== null);
  return says ? payee : undefined;
}

/** Where a payment stands, from `GET /api/pix/transaction/{externalId}`. An unknown status is pending, never success. */
export function paymentStatusOf(answer: HttpAnswer, checkAt: Date): PaymentStatus {
  if (answer.status === 404) return { status: 'not_found' };
  if (answer.status !== 200) return { status: 'unknown', reason: `the status query answered HTTP ${answer.status}`, retryAt: checkAt };
  const poll = answer.body as Partial<TransactionPoll>;
  if (poll.status === 'CONFIRMED' && typeof poll.e2eId === 'string' && poll.e2eId !== '') {
    const payee = poll.type === 'WITHDRAW' || poll.type === 'TRANSFER' ? payeeOfPoll(poll) : undefined;
    return { status: 'settled', endToEndId: poll.e2eId, ...(payee ? { payee } : {}) };
  }
  if (poll.status === 'ERROR') return { status: 'rejected', ...ADAPTER_REJECTIONS.failedWithoutReason };
  return { status: 'pending', checkAt };
}

/** An amount the provider wrote in BRL, exactly (more than 2 decimals is not an amount we accept). */
export function centsOf(value: unknown, field: string): Cents {
  const c = typeof value === 'number' ? centsFromNumber(value) : undefined;
  if (c === undefined || c <= 0) throw new Error(`the provider's ${field} is not a positive BRL amount with at most 2 decimals: ${JSON.stringify(value)}`);
  return c;
}

/** The payer of money received, as far as the provider tells (documents come masked). */
export function payerOf(counterpart: NoticeCounterpart | null | undefined): Payer {
  return {
    name: counterpart?.name || 'Pagador não identificado',
    document: counterpart?.document || '',
    ispb: counterpart?.bank?.bankISPB || '00000000',
  };
}

/** Who received a payout, as the status query tells it (its counterpart fields). */
function payeeOfPoll(poll: Partial<TransactionPoll>): PayeeReport | undefined {
  return payeeOf({
    name: poll.counterpartName ?? null,
    document: poll.counterpartDocument ?? null,
    bank: { bankISPB: poll.counterpartAccountIspb ?? null, bankName: poll.counterpartAccountBankName ?? null, bankCode: poll.counterpartAccountBankCode ?? null },
  });
}

/** The payer of a paid charge as the status query tells it. */
export function payerOfPoll(poll: Partial<TransactionPoll>): Payer {
  return {
    name: poll.counterpartName || 'Pagador não identificado',
    document: poll.counterpartDocument || '',
    ispb: poll.counterpartAccountIspb || '00000000',
  };
}
