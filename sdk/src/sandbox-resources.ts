import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.ts';
import type { AnswerOf, BodyOf, RequestOptions } from './operation-types.ts';
import { unwrap } from './unwrap.ts';

const init = (options: RequestOptions) => (options.signal ? { signal: options.signal } : {});

/**
 * The simulated rest of the PIX network (sandbox mode only). With an account's client they act for
 * that account; with the admin client, for the account named by `accountId` in the body. None is
 * retried after its first attempt: each one is a new event of the simulated network.
 */
export function sandboxResources(http: Client<paths>) {
  return {
    deposits: {
      /** POST /sandbox/deposits: an incoming PIX from another bank (refundable, disputable by a MED). */
      create: (body: BodyOf<'createDeposit'>, options: RequestOptions = {}): Promise<AnswerOf<'createDeposit'>> =>
        unwrap(http.POST('/sandbox/deposits', { body, ...init(options) })),
    },
    charges: {
      /** POST /sandbox/charges/{id}/pay: a simulated payer pays the charge. */
      pay: (transactionId: string, body: BodyOf<'payCharge'> = {}, options: RequestOptions = {}): Promise<AnswerOf<'payCharge'>> =>
        unwrap(http.POST('/sandbox/charges/{id}/pay', { params: { path: { id: transactionId } }, body, ...init(options) })),
    },
    payouts: {
      /** POST /sandbox/payouts/{transactionId}/refund: the receiving bank returns (part of) a payout. */
      refund: (transactionId: string, body: BodyOf<'refundPayout'>, options: RequestOptions = {}): Promise<AnswerOf<'refundPayout'>> =>
        unwrap(http.POST('/sandbox/payouts/{transactionId}/refund', { params: { path: { transactionId } }, body, ...init(options) })),
    },
    med: {
      /** POST /sandbox/med: another bank opens a MED against a received PIX. */
      open: (body: BodyOf<'openMed'>, options: RequestOptions = {}): Promise<AnswerOf<'openMed'>> => unwrap(http.POST('/sandbox/med', { body, ...init(options) })),
      /** POST /sandbox/med/{id}/transition: OPEN → RECEIVED → ANALYZED (APPROVED or REJECTED); OPEN|RECEIVED → CANCELLED. */
      transition: (medId: string | number, body: BodyOf<'transitionMed'>, options: RequestOptions = {}): Promise<AnswerOf<'transitionMed'>> =>
        unwrap(http.POST('/sandbox/med/{id}/transition', { params: { path: { id: String(medId) } }, body, ...init(options) })),
    },
    dictKeys: {
      /** POST /sandbox/dict/keys: a key in the simulated directory. */
      register: (body: BodyOf<'registerDictKey'>, options: RequestOptions = {}): Promise<AnswerOf<'registerDictKey'>> =>
        unwrap(http.POST('/sandbox/dict/keys', { body, ...init(options) })),
    },
    clock: {
      /** POST /sandbox/clock/advance (admin token): moves the shared service clock. */
      advance: (body: BodyOf<'advanceClock'>, options: RequestOptions = {}): Promise<AnswerOf<'advanceClock'>> =>
        unwrap(http.POST('/sandbox/clock/advance', { body, ...init(options) })),
    },
  };
}

export type SandboxResources = ReturnType<typeof sandboxResources>;
