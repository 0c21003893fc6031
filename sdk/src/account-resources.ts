import { randomUUID } from 'node:crypto';
import type { Client } from 'openapi-fetch';
import { PixApiError } from './errors.ts';
import { cursorList, eventStream, type CursorList, type EventPage, type EventStreamOptions, type PixEvent, type StreamedEvent } from './events.ts';
import type { paths } from './openapi.ts';
import type { AnswerOf, BodyOf, QueryOf, RequestOptions, SandboxableOptions } from './operation-types.ts';
import { pagedList, type PagedList } from './paging.ts';
import { attemptsOf } from './transport.ts';
import { unwrap } from './unwrap.ts';

export type Balance = AnswerOf<'getBalance'>;
export type CashOutInput = BodyOf<'createCashOut'>;
export type CashOut = AnswerOf<'createCashOut'>;
export type CashOutQrCodeInput = BodyOf<'createCashOutQrCode'>;
export type CashOutQrCode = AnswerOf<'createCashOutQrCode'>;
export type ChargeInput = BodyOf<'createCashIn'>;
export type Charge = AnswerOf<'createCashIn'>;
export type TransactionListQuery = Omit<QueryOf<'listTransactions'>, 'page'>;
export type TransactionPage = AnswerOf<'listTransactions'>;
export type TransactionListItem = TransactionPage['data'][number];
export type Transaction = AnswerOf<'getTransaction'>;
export type RefundInput = BodyOf<'createRefundIn'>;
export type Refund = AnswerOf<'createRefundIn'>;
export type MedListQuery = Omit<QueryOf<'listMed'>, 'page'>;
export type MedPage = AnswerOf<'listMed'>;
export type Med = MedPage['data'][number];
export type EventListQuery = QueryOf<'listEvents'>;
export type ReplayInput = BodyOf<'replayWebhookDeliveries'>;
export type ReplayAnswer = AnswerOf<'replayWebhookDeliveries'>;
export type DictPixInput = BodyOf<'createDictTransfer'>;
export type DictPixTransfer = AnswerOf<'createDictTransfer'>;

const scenarioHeader = (options: SandboxableOptions) => (options.scenario ? { 'x-sandbox-scenario': options.scenario } : {});
const init = (options: RequestOptions) => (options.signal ? { signal: options.signal } : {});

/**
 * A POST whose first attempt was lost on the network acted: its retry is refused as a duplicate of
 * that very request. The refusal is then the proof the first attempt went through, so the answer
 * is rebuilt from the transaction it created (same externalId, same kind, same amount).
 */
async function recoverDuplicate<T>(
  http: Client<paths>,
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  expected: { externalId: string; type: 'WITHDRAW'; value: number },
  rebuild: (tx: Transaction & { transactionId: string }) => T,
): Promise<T> {
  const answer = await call;
  if (answer.error === undefined && answer.response.ok) return answer.data as T;
  const error = PixApiError.from(answer.response.status, answer.error, answer.response.headers.get('x-request-id') ?? undefined);
  const duplicate = error.code === 'PIX_DUPLICATE_EXTERNAL_ID' || (error.body as { errorCode?: string } | undefined)?.errorCode === 'PIX_DUPLICATE_EXTERNAL_ID';
  if (!duplicate || !attemptsOf(answer.response).outcomeUnknown) throw error;
  const listed = await unwrap(http.GET('/api/transactions', { params: { query: { externalId: expected.externalId, type: expected.type, size: 1 } } }));
  const found = listed.data[0];
  if (!found) throw error;
  const tx = await unwrap(http.GET('/api/pix/transaction/{id}', { params: { path: { id: found.transactionId } } }));
  if (tx.type !== expected.type || tx.originalAmount !== expected.value) throw error;
  return rebuild({ ...tx, transactionId: found.transactionId });
}

/** The account API by operation: what `createPixClient` returns beside `http`. */
export function accountResources(http: Client<paths>) {
  return {
    balance: {
      /** GET /api/balance: gross, blocked and net balance (BRL). */
      get: (options: RequestOptions = {}): Promise<Balance> => unwrap(http.GET('/api/balance', init(options))),
    },
    cashOut: {
      /**
       * POST /api/pix/cash-out: a PIX to a key, PENDING until settled. Retried on 429, 503 and network
       * failures (the externalId makes a repeat harmless); after a lost answer the payout it made is returned.
       */
      create: (body: CashOutInput, options: SandboxableOptions = {}): Promise<CashOut> =>
        recoverDuplicate(
          http,
          http.POST('/api/pix/cash-out', { body, params: { header: scenarioHeader(options) }, ...init(options) }),
          { externalId: body.externalId, type: 'WITHDRAW', value: body.value },
          (tx) => ({ transactionId: tx.transactionId, externalId: body.externalId, status: tx.status, generateTime: tx.createdAt }),
        ),
    },
    cashOutQrCode: {
      /** POST /api/pix/cash-out-qrcode: pays a BR Code (static or dynamic). Retried like cashOut.create. */
      create: (body: CashOutQrCodeInput, options: SandboxableOptions = {}): Promise<CashOutQrCode> =>
        unwrap(http.POST('/api/pix/cash-out-qrcode', { body, params: { header: scenarioHeader(options) }, ...init(options) })),
    },
    charges: {
      /** POST /api/pix/cash-in: a dynamic-QR charge (BR Code in `pixCode`). Retried on 429, 503 and network failures (externalId). */
      create: (body: ChargeInput, options: SandboxableOptions = {}): Promise<Charge> =>
        unwrap(http.POST('/api/pix/cash-in', { body, params: { header: scenarioHeader(options) }, ...init(options) })),
    },
    transactions: {
      /** GET /api/transactions: `await` for the first page, `for await` for every transaction of every page. */
      list: (query: TransactionListQuery = {}, options: RequestOptions = {}): PagedList<TransactionListItem, TransactionPage> =>
        pagedList((page) => unwrap(http.GET('/api/transactions', { params: { query: { ...query, page } }, ...init(options) }))),
      /** GET /api/pix/transaction/{id}: by numeric id, transactionId or externalId. */
      get: (id: string, options: RequestOptions = {}): Promise<Transaction> =>
        unwrap(http.GET('/api/pix/transaction/{id}', { params: { path: { id } }, ...init(options) })),
    },
    refunds: {
      /**
       * POST /api/pix/refund-in/{id}: refunds (part of) a received PIX. Retried on 429, 503 and network
       * failures only when `externalId` is given (without one a repeat could refund twice).
       */
      create: (transactionId: string, body: RefundInput, options: SandboxableOptions = {}): Promise<Refund> =>
        unwrap(http.POST('/api/pix/refund-in/{id}', { params: { path: { id: transactionId }, header: scenarioHeader(options) }, body, ...init(options) })),
    },
    med: {
      /** GET /api/med: the account's MEDs; `await` for the first page, `for await` for all. */
      list: (query: MedListQuery = {}, options: RequestOptions = {}): PagedList<Med, MedPage> =>
        pagedList((page) => unwrap(http.GET('/api/med', { params: { query: { ...query, page } }, ...init(options) }))),
    },
    events: {
      /** GET /api/events: the account's events oldest first after `after`; `await` for a page, `for await` for all of them. */
      list: (query: EventListQuery = {}, options: RequestOptions = {}): CursorList<PixEvent, EventPage> =>
        cursorList((after) => unwrap(http.GET('/api/events', { params: { query: { ...query, ...(after ? { after } : {}) } }, ...init(options) })), query.after),
      /** GET /api/events/{id}. */
      get: (id: string, options: RequestOptions = {}): Promise<PixEvent> => unwrap(http.GET('/api/events/{id}', { params: { path: { id } }, ...init(options) })),
      /**
       * GET /api/events/stream as an async iterator: every event as it happens, resumed with
       * Last-Event-ID after a dropped connection or a restart of the service (none lost, none repeated).
       */
      stream: (options: EventStreamOptions = {}): AsyncGenerator<StreamedEvent, void, undefined> =>
        eventStream(
          (query, lastEventId, signal) =>
            http.GET('/api/events/stream', { params: { query, header: lastEventId ? { 'last-event-id': lastEventId } : {} }, parseAs: 'stream', signal }),
          options,
        ),
    },
    webhookDeliveries: {
      /** POST /api/webhook-deliveries/replay: queues again the deliveries since `since` (`failed` or `all`); answers `{queued}`. Not retried. */
      replay: (body: ReplayInput, options: RequestOptions = {}): Promise<ReplayAnswer> =>
        unwrap(http.POST('/api/webhook-deliveries/replay', { body, ...init(options) })),
    },
    dictPix: {
      /**
       * POST /dict/pix: a transfer to a key on the compatible family. An `x-idempotency-key` (UUID v4) is
       * made when none is given, so a lost answer is retried and replayed, never paid twice.
       */
      create: (body: DictPixInput, options: RequestOptions & { idempotencyKey?: string } = {}): Promise<DictPixTransfer> =>
        unwrap(http.POST('/dict/pix', { body, params: { header: { 'x-idempotency-key': options.idempotencyKey ?? randomUUID() } }, ...init(options) })),
      /** GET /dict/pix/{id}. */
      get: (id: string, options: RequestOptions = {}): Promise<AnswerOf<'getDictTransfer'>> =>
        unwrap(http.GET('/dict/pix/{id}', { params: { path: { id } }, ...init(options) })),
    },
  };
}

export type AccountResources = ReturnType<typeof accountResources>;
