import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect } from 'vitest';
import { checkWebhookDelivery } from '../../src/http/openapi/response-check.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver } from '../webhooks/receiver.ts';

/** One webhook as the client's server saw it: the path, the headers and the raw body. */
export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/**
 * What every flow file needs: a fresh harness and a real receiver, started before its tests and closed
 * after them. `use` hands them to the file's own variables.
 */
export function useFlowEnvironment(use: (env: { h: Harness; rx: FlowReceiver }) => void) {
  let env: { h: Harness; rx: FlowReceiver } | undefined;
  beforeAll(async () => {
    env = { h: await startHarness(), rx: await startFlowReceiver() };
    use(env);
  });
  afterAll(async () => {
    await env?.rx.close();
    await env?.h.close();
  });
}

/**
 * The webhooks suite's real HTTP receiver (127.0.0.1, port 0), seen as a client would: `failNext(path,
 * n)` makes the next n requests to that path answer 500.
 */
export async function startFlowReceiver() {
  const rx = await startReceiver();
  // Every delivery a flow provokes must match the document's `webhooks` section (checked after each test).
  rx.onEvery((req) => checkWebhookDelivery(req.headers as Record<string, unknown>, req.body));
  const at = (path: string): Delivery[] => rx.to(path).map((r) => ({ path: r.path, headers: r.headers, raw: r.body }));
  return {
    get received(): Delivery[] {
      return rx.requests.map((r) => ({ path: r.path, headers: r.headers, raw: r.body }));
    },
    url: rx.url,
    at,
    failNext(path: string, times: number) {
      const before = rx.to(path).length;
      rx.on(path, (_req, nth) => (nth - before <= times ? { status: 500, body: 'try later' } : { status: 200, body: 'ok' }));
    },
    close: () => rx.close(),
  };
}
export type FlowReceiver = Awaited<ReturnType<typeof startFlowReceiver>>;

export const EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const;

/**
 * Registers one URL per event type for the account through the admin routes (path `/<account>/<event>`)
 * and answers a reader that verifies every body with the account's `whsec_` secret.
 */
export async function subscribe(h: Harness, rx: FlowReceiver, accountId: number) {
  for (const eventType of EVENT_TYPES) {
    const res = await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType, url: rx.url(`/${accountId}/${eventType}`) });
    expect(res.statusCode, res.body).toBe(201);
  }
  const secretRes = await h.admin('GET', `/admin/accounts/${accountId}/webhook-secret`);
  expect(secretRes.statusCode).toBe(200);
  const secret = secretRes.json().secret as string;
  expect(secret).toMatch(/^whsec_/);
  const verifier = new Webhook(secret);
  /** The verified bodies received so far for one event type of this account, oldest first. */
  const bodies = (eventType: (typeof EVENT_TYPES)[number]): any[] =>
    rx.at(`/${accountId}/${eventType}`).map((d) => {
      expect(d.headers['content-type']).toBe('application/json');
      return verifier.verify(d.raw, d.headers as Record<string, string>);
    });
  return { secret, bodies, verifier };
}

/** Runs the webhook relay until nothing is due now (what the background relay does in production). */
export async function deliverAll(h: Harness) {
  for (let i = 0; i < 10; i++) if ((await h.c.webhookRelay.runDue()) === 0) return;
}

/** Masked document shapes of decisions 3. */
export const MASKED_CPF = /^\*\*\*\.\d{3}\.\d{3}-\*\*$/;
export const MASKED_CNPJ = /^\*\*\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\*\*$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The standard-shape balance and the central-bank-compatible one, checked to agree. */
export async function balances(h: Harness, token: string) {
  const std = await h.api('GET', '/api/balance', token);
  expect(std.statusCode, std.body).toBe(200);
  const bc = await h.api('GET', '/accounts/balances', token);
  expect(bc.statusCode, bc.body).toBe(200);
  const { available, blocked, overdraft } = bc.json().data[0].balanceAmount;
  const s = std.json();
  expect(overdraft).toBe(0);
  expect(s.netBalance).toBe(available);
  expect(s.blockedBalance).toBe(blocked);
  expect(s.grossBalance).toBeCloseTo(available + blocked, 2);
  return { available: available as number, blocked: blocked as number };
}

/** GET /api/transactions (all of the default window) as a map by transactionId. */
export async function transactionsOf(h: Harness, token: string, query = '') {
  const res = await h.api('GET', `/api/transactions?size=100${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json().data as any[];
  return { list, byId: new Map(list.map((t) => [t.transactionId as string, t])) };
}
