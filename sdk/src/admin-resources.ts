import type { Client } from 'openapi-fetch';
import type { operations, paths } from './openapi.ts';
import type { AnswerOf, BodyOf, QueryOf, RequestOptions } from './operation-types.ts';
import { cursorList, eventStream, type CursorList, type EventStreamOptions, type StreamedEvent } from './events.ts';
import { pagedList, type PagedList } from './paging.ts';
import { unwrap } from './unwrap.ts';

type Paged<Op extends keyof operations> = AnswerOf<Op> extends { data: Array<infer T>; metadata: { totalPages: number } } ? PagedList<T, AnswerOf<Op>> : never;
type ListQuery<Op extends keyof operations> = Omit<QueryOf<Op>, 'page'>;
type Id = string | number;

const init = (options: RequestOptions) => (options.signal ? { signal: options.signal } : {});
const id = (value: Id) => String(value);

/** The operator API by operation: what `createPixAdminClient` returns beside `http` and `all`. */
export function adminResources(http: Client<paths>) {
  return {
    accounts: {
      /** GET /admin/accounts (search with `q`): `await` for a page, `for await` for every account. */
      list: (query: ListQuery<'listAccounts'> = {}, options: RequestOptions = {}): Paged<'listAccounts'> =>
        pagedList((page) => unwrap(http.GET('/admin/accounts', { params: { query: { ...query, page } }, ...init(options) }))) as Paged<'listAccounts'>,
      create: (body: BodyOf<'createAccount'>, options: RequestOptions = {}): Promise<AnswerOf<'createAccount'>> =>
        unwrap(http.POST('/admin/accounts', { body, ...init(options) })),
      get: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'getAccount'>> =>
        unwrap(http.GET('/admin/accounts/{id}', { params: { path: { id: id(accountId) } }, ...init(options) })),
      updateFees: (accountId: Id, body: BodyOf<'updateFees'>, options: RequestOptions = {}): Promise<AnswerOf<'updateFees'>> =>
        unwrap(http.PATCH('/admin/accounts/{id}/fees', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      updateLimits: (accountId: Id, body: BodyOf<'updateLimits'>, options: RequestOptions = {}): Promise<AnswerOf<'updateLimits'>> =>
        unwrap(http.PATCH('/admin/accounts/{id}/limits', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      updateSplitFrequency: (accountId: Id, body: BodyOf<'updateSplitFrequency'>, options: RequestOptions = {}): Promise<AnswerOf<'updateSplitFrequency'>> =>
        unwrap(http.PATCH('/admin/accounts/{id}/split-frequency', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      /** PATCH /admin/accounts/{id}: changes the name (`{name?}`; an empty body changes nothing); answers the account. */
      update: (accountId: Id, body: BodyOf<'updateAccount'>, options: RequestOptions = {}): Promise<AnswerOf<'updateAccount'>> =>
        unwrap(http.PATCH('/admin/accounts/{id}', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      /** POST /admin/accounts/{id}/suspend: money-moving calls then answer 403 ACCOUNT_SUSPENDED; answers the account (`status` SUSPENDED). */
      suspend: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'suspendAccount'>> =>
        unwrap(http.POST('/admin/accounts/{id}/suspend', { params: { path: { id: id(accountId) } }, ...init(options) })),
      /** POST /admin/accounts/{id}/reactivate: answers the account (`status` ACTIVE). */
      reactivate: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'reactivateAccount'>> =>
        unwrap(http.POST('/admin/accounts/{id}/reactivate', { params: { path: { id: id(accountId) } }, ...init(options) })),
    },
    certificates: {
      /** GET /admin/accounts/{id}/certificates: newest first, revoked ones included (fingerprint, subject, validity); `await` for a page, `for await` for all. */
      list: (accountId: Id, query: ListQuery<'listCertificates'> = {}, options: RequestOptions = {}): Paged<'listCertificates'> =>
        pagedList((page) => unwrap(http.GET('/admin/accounts/{id}/certificates', { params: { path: { id: id(accountId) }, query: { ...query, page } }, ...init(options) }))) as Paged<'listCertificates'>,
      /** POST /admin/accounts/{id}/certificates: registers a PEM, or makes a key pair when the body is empty. */
      create: (accountId: Id, body: BodyOf<'registerCertificate'> = {}, options: RequestOptions = {}): Promise<AnswerOf<'registerCertificate'>> =>
        unwrap(http.POST('/admin/accounts/{id}/certificates', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      revoke: (fingerprint: string, options: RequestOptions = {}): Promise<void> =>
        unwrap(http.DELETE('/admin/certificates/{fingerprint}', { params: { path: { fingerprint } }, ...init(options) })).then(() => undefined),
    },
    credentials: {
      list: (accountId: Id, query: ListQuery<'listCredentials'> = {}, options: RequestOptions = {}): Paged<'listCredentials'> =>
        pagedList((page) => unwrap(http.GET('/admin/accounts/{id}/credentials', { params: { path: { id: id(accountId) }, query: { ...query, page } }, ...init(options) }))) as Paged<'listCredentials'>,
      create: (accountId: Id, body: BodyOf<'createCredentials'> = {}, options: RequestOptions = {}): Promise<AnswerOf<'createCredentials'>> =>
        unwrap(http.POST('/admin/accounts/{id}/credentials', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      revoke: (accountId: Id, clientId: string, options: RequestOptions = {}): Promise<void> =>
        unwrap(http.DELETE('/admin/accounts/{id}/credentials/{clientId}', { params: { path: { id: id(accountId), clientId } }, ...init(options) })).then(() => undefined),
    },
    members: {
      list: (accountId: Id, query: ListQuery<'listMembers'> = {}, options: RequestOptions = {}): Paged<'listMembers'> =>
        pagedList((page) => unwrap(http.GET('/admin/accounts/{id}/members', { params: { path: { id: id(accountId) }, query: { ...query, page } }, ...init(options) }))) as Paged<'listMembers'>,
      invite: (accountId: Id, body: BodyOf<'inviteMember'>, options: RequestOptions = {}): Promise<AnswerOf<'inviteMember'>> =>
        unwrap(http.POST('/admin/accounts/{id}/members', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      remove: (accountId: Id, memberId: Id, options: RequestOptions = {}): Promise<void> =>
        unwrap(http.DELETE('/admin/accounts/{id}/members/{memberId}', { params: { path: { id: id(accountId), memberId: id(memberId) } }, ...init(options) })).then(() => undefined),
    },
    webhooks: {
      list: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'listAccountWebhooks'>> =>
        unwrap(http.GET('/admin/accounts/{id}/webhooks', { params: { path: { id: id(accountId) } }, ...init(options) })),
      create: (accountId: Id, body: BodyOf<'registerAccountWebhook'>, options: RequestOptions = {}): Promise<AnswerOf<'registerAccountWebhook'>> =>
        unwrap(http.POST('/admin/accounts/{id}/webhooks', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      delete: (webhookId: Id, options: RequestOptions = {}): Promise<void> =>
        unwrap(http.DELETE('/admin/webhooks/{id}', { params: { path: { id: id(webhookId) } }, ...init(options) })).then(() => undefined),
      /** POST /admin/accounts/{id}/webhooks/test: a sample event to the account's URLs. */
      test: (accountId: Id, body: BodyOf<'sendTestWebhook'>, options: RequestOptions = {}): Promise<AnswerOf<'sendTestWebhook'>> =>
        unwrap(http.POST('/admin/accounts/{id}/webhooks/test', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
    },
    webhookDeliveries: {
      replay: (accountId: Id, body: BodyOf<'replayAccountDeliveries'>, options: RequestOptions = {}): Promise<AnswerOf<'replayAccountDeliveries'>> =>
        unwrap(http.POST('/admin/accounts/{id}/webhook-deliveries/replay', { params: { path: { id: id(accountId) } }, body, ...init(options) })),
      list: (accountId: Id, query: ListQuery<'listWebhookDeliveries'> = {}, options: RequestOptions = {}): Paged<'listWebhookDeliveries'> =>
        pagedList((page) => unwrap(http.GET('/admin/accounts/{id}/webhook-deliveries', { params: { path: { id: id(accountId) }, query: { ...query, page } }, ...init(options) }))) as Paged<'listWebhookDeliveries'>,
    },
    events: {
      list: (accountId: Id, query: QueryOf<'listAccountEvents'> = {}, options: RequestOptions = {}): CursorList<AnswerOf<'listAccountEvents'>['data'][number], AnswerOf<'listAccountEvents'>> =>
        cursorList(
          (after) => unwrap(http.GET('/admin/accounts/{id}/events', { params: { path: { id: id(accountId) }, query: { ...query, ...(after ? { after } : {}) } }, ...init(options) })),
          query.after,
        ),
      get: (accountId: Id, eventId: string, options: RequestOptions = {}): Promise<AnswerOf<'getAccountEvent'>> =>
        unwrap(http.GET('/admin/accounts/{id}/events/{eventId}', { params: { path: { id: id(accountId), eventId } }, ...init(options) })),
      stream: (accountId: Id, options: EventStreamOptions = {}): AsyncGenerator<StreamedEvent, void, undefined> =>
        eventStream(
          (query, lastEventId, signal) =>
            http.GET('/admin/accounts/{id}/events/stream', {
              params: { path: { id: id(accountId) }, query, header: lastEventId ? { 'last-event-id': lastEventId } : {} },
              parseAs: 'stream',
              signal,
            }),
          options,
        ),
    },
    webhookSecret: {
      get: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'getWebhookSecret'>> =>
        unwrap(http.GET('/admin/accounts/{id}/webhook-secret', { params: { path: { id: id(accountId) } }, ...init(options) })),
      rotate: (accountId: Id, options: RequestOptions = {}): Promise<AnswerOf<'rotateWebhookSecret'>> =>
        unwrap(http.POST('/admin/accounts/{id}/webhook-secret/rotate', { params: { path: { id: id(accountId) } }, ...init(options) })),
    },
    operators: {
      list: (query: ListQuery<'listOperators'> = {}, options: RequestOptions = {}): Paged<'listOperators'> =>
        pagedList((page) => unwrap(http.GET('/admin/operators', { params: { query: { ...query, page } }, ...init(options) }))) as Paged<'listOperators'>,
      create: (body: BodyOf<'createOperator'>, options: RequestOptions = {}): Promise<AnswerOf<'createOperator'>> =>
        unwrap(http.POST('/admin/operators', { body, ...init(options) })),
      /** DELETE /admin/operators/{id}: the operator's portal sessions end at once. */
      remove: (operatorId: Id, options: RequestOptions = {}): Promise<void> =>
        unwrap(http.DELETE('/admin/operators/{id}', { params: { path: { id: id(operatorId) } }, ...init(options) })).then(() => undefined),
    },
    network: {
      status: (options: RequestOptions = {}): Promise<AnswerOf<'networkStatus'>> => unwrap(http.GET('/admin/network/status', init(options))),
      statementCheck: (options: RequestOptions = {}): Promise<AnswerOf<'runStatementCheck'>> =>
        unwrap(http.POST('/admin/network/statement-check', init(options))),
      suspense: {
        list: (query: ListQuery<'listSuspense'> = {}, options: RequestOptions = {}): Paged<'listSuspense'> =>
          pagedList((page) => unwrap(http.GET('/admin/network/suspense', { params: { query: { ...query, page } }, ...init(options) }))) as Paged<'listSuspense'>,
        assign: (itemId: Id, body: BodyOf<'assignSuspense'>, options: RequestOptions = {}): Promise<AnswerOf<'assignSuspense'>> =>
          unwrap(http.POST('/admin/network/suspense/{id}/assign', { params: { path: { id: id(itemId) } }, body, ...init(options) })),
      },
    },
    ledger: {
      check: (options: RequestOptions = {}): Promise<AnswerOf<'ledgerCheck'>> => unwrap(http.GET('/admin/ledger/check', init(options))),
    },
    signingKeys: {
      rotate: (options: RequestOptions = {}): Promise<AnswerOf<'rotateSigningKey'>> => unwrap(http.POST('/admin/signing-keys/rotate', init(options))),
    },
  };
}

export type AdminResources = ReturnType<typeof adminResources>;
