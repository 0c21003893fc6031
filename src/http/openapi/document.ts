import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../config.ts';
import { MedEventPayload, ReceiveEventPayload, RefundEventPayload, TransactionEventPayload, TransferEventPayload } from '../../webhooks/payloads/schemas.ts';
import { DELAYED_SCENARIO_PATTERN, MAX_SCENARIO_DELAY_S, SCENARIO_VALUES } from '../../domain/sandbox-scenarios.ts';
import { addExamples } from './examples.ts';
import { gettingStarted } from './getting-started.ts';

/** A plain JSON copy without TypeBox's symbols or nested `$id`s (they are components here). */
const plain = (schema: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value)));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, description: 'the delivery id; the same on every retry (deduplicate on it)', schema: { type: 'string' }, example: 'msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60' },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds of the signature; refuse it when more than 5 minutes away from your clock', schema: { type: 'string' }, example: '1795186800' },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account\'s `whsec_` secret (space-separated when several)',
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const WEBHOOKS: Record<string, { summary: string; schemas: string[] }> = {
  cash_in: { summary: 'A payment was received (a charge paid, a deposit, an on-us transfer)', schemas: ['TransactionEvent', 'ReceiveEvent'] },
  cash_out: { summary: 'A payout settled or failed', schemas: ['TransactionEvent', 'TransferEvent'] },
  refund_in: { summary: 'A refund of a received payment settled or failed', schemas: ['TransactionEvent', 'RefundEvent'] },
  refund_out: { summary: 'A payout was returned by its receiver', schemas: ['TransactionEvent'] },
  med_created: { summary: 'A MED (special return) was opened against a received payment', schemas: ['MedEvent'] },
  med_accepted: { summary: 'A MED was accepted: the amount is returned', schemas: ['MedEvent'] },
  med_rejected: { summary: 'A MED was rejected', schemas: ['MedEvent'] },
};

function webhooks() {
  const out: Record<string, unknown> = {};
  for (const [name, { summary, schemas }] of Object.entries(WEBHOOKS)) {
    out[name] = {
      post: {
        operationId: `${name.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}Webhook`,
        summary,
        tags: ['webhook events'],
        description: `Sent to the URL registered for \`${name}\`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.`,
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemas.length === 1 ? ref(schemas[0]!) : { oneOf: schemas.map(ref) } } },
        },
        responses: { '2XX': { description: 'Received; any other answer is retried' } },
        security: [],
      },
    };
  }
  return out;
}

const TAGS = [
  { name: 'auth', description: 'Access tokens: a client certificate plus client credentials' },
  { name: 'pix', description: 'Charges (cash-in) of the full family' },
  { name: 'payouts', description: 'Payouts (cash-out) by key or BR Code' },
  { name: 'balance', description: 'The account balance' },
  { name: 'transactions', description: 'Transactions and their details' },
  { name: 'med', description: 'MED (special returns) against the account' },
  { name: 'webhooks', description: 'Webhook registrations and re-delivery' },
  { name: 'compatible', description: 'The compatible family (central bank PIX API): OAuth token' },
  { name: 'cob', description: 'Immediate charges (cob) of the compatible family' },
  { name: 'devolucao', description: 'Refunds (devolução) of the compatible family' },
  { name: 'admin', description: 'Operator routes: ADMIN_TOKEN' },
  { name: 'sandbox', description: 'Sandbox tools: pay charges, deposit, move the clock' },
  { name: 'system', description: 'Health, metrics, keys and this document' },
  { name: 'network', description: "What the upstream PIX provider calls (PIX_NETWORK=provider): its signed notices" },
  { name: 'webhook events', description: 'What the service POSTs to your URLs (signed, Standard Webhooks)' },
];

/** The document's fixed parts; routes add their operations (route-docs.ts completes each one). */
export function swaggerOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pix-account-service',
        version: '0.1.0',
        summary: 'A payment-account service for PIX: charges, payouts, refunds, MED and webhooks.',
        description: gettingStarted(config.publicUrl),
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: config.publicUrl, description: config.mode === 'sandbox' ? 'This sandbox' : 'This service' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token from POST /api/auth/token or POST /oauth/token, bound to the client certificate (RFC 8705): send the same certificate with every call.',
          },
          admin: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN; printed at start-up in the sandbox)' },
          metrics: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set, to read /metrics' },
          clientBasic: { type: 'http', scheme: 'basic', description: 'RFC 6749 client authentication: client_id and client_secret, form-urlencoded, then Basic' },
        },
        schemas: {
          TransactionEvent: plain(TransactionEventPayload),
          ReceiveEvent: plain(ReceiveEventPayload),
          RefundEvent: plain(RefundEventPayload),
          TransferEvent: plain(TransferEventPayload),
          MedEvent: plain(MedEventPayload),
        },
      },
      webhooks: webhooks(),
    } as FastifyDynamicSwaggerOptions['openapi'],
    // Shared schemas (the error envelopes) keep their `$id` as their component name.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (documentObject) => {
      const document = documentFormats((documentObject as { openapiObject: Record<string, unknown> }).openapiObject);
      documentScenarioHeader(document);
      addExamples(document);
      return document as never;
    },
  };
}

/**
 * Formats as clients read them: `uuid-v4` is the standard `uuid` with the version-4 pattern; `money`
 * stays a documented custom format (a JSON number of BRL with at most 2 decimals, never rounded).
 */
function documentFormats(document: Record<string, unknown>): Record<string, unknown> {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    if (out.format === 'uuid-v4') {
      out.format = 'uuid';
      out.pattern ??= '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';
    }
    if (out.format === 'money' && typeof out.description !== 'string') out.description = 'BRL, at most 2 decimals (format money)';
    // A field and its alias, exactly one of them (validated by the keyword of that name), in standard terms.
    const oneOfFields = out['x-one-of-fields'];
    if (Array.isArray(oneOfFields) && out.oneOf === undefined) out.oneOf = oneOfFields.map((field) => ({ required: [field] }));
    return out;
  };
  return visit(document) as Record<string, unknown>;
}

type Parameter = { name?: string; in?: string; schema?: Record<string, unknown> };

/**
 * `X-Sandbox-Scenario` as the enum of its values plus the `delayed:Ns` pattern, from the scenario
 * table. Only in the document: the service validates the header with that table itself, so an unknown
 * value is answered with the list of allowed ones, and production refuses the header whatever its value.
 */
function documentScenarioHeader(document: Record<string, unknown>): void {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, { parameters?: Parameter[] }>>)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'header' || parameter.name !== 'x-sandbox-scenario') continue;
        parameter.schema = {
          anyOf: [
            { type: 'string', enum: [...SCENARIO_VALUES] },
            { type: 'string', pattern: DELAYED_SCENARIO_PATTERN, description: `delayed:Ns: settles N seconds later than success (N above ${MAX_SCENARIO_DELAY_S} counts as ${MAX_SCENARIO_DELAY_S})` },
          ],
          examples: ['success', 'delayed:10s', 'error:insufficient-funds'],
        };
      }
    }
  }
}
