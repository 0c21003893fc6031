import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MedEventPayload, ReceiveEventPayload, RefundEventPayload, TransactionEventPayload, TransferEventPayload } from '../../webhooks/payloads/schemas.ts';
import { addServiceFormats } from '../validation.ts';
import { errorSchemas } from './error-schemas.ts';

/**
 * The suite's contract check (enabled by the test harness, never in production): every answer of a
 * documented route must have a status the route declares and a body its schema accepts. Violations
 * are collected here; test/setup/response-contract.ts fails the test that caused one.
 */
const violations: string[] = [];

/** The violations recorded since the last call (and forgets them). */
export const takeResponseViolations = (): string[] => violations.splice(0);

// ajv ignores a format it does not know (with a warning): here that is an error, so a schema naming a
// format no table checks cannot pass every answer unseen.
const logger = {
  log: console.log,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (typeof message === 'string' && message.startsWith('unknown format')) throw new Error(`${message}: register it in src/http/format-checks.ts`);
    console.warn(message, ...rest);
  },
  error: console.error,
};
const ajv = new Ajv({ strict: false, allErrors: true, logger });
// The service's own format table, the one request validation uses (src/http/validation.ts,
// src/http/format-checks.ts): an answer's `money` with a third decimal, a `uuid-v4` that is not one, a
// `document` that is no CPF or CNPJ, a `date-time` out of range... is refused as a request's would be.
addServiceFormats(ajv);
for (const schema of errorSchemas) ajv.addSchema(schema as object);

const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    // A nested `$id` is compiled once per route: ajv refuses a second schema under the same id.
    const copy = JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value)));
    validate = ajv.compile(copy);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The declared schema for a status: the exact code, then `4xx`-style ranges, then `default`. */
function declaredFor(responses: Record<string, unknown>, status: number): unknown {
  return responses[status] ?? responses[`${String(status)[0]}xx`] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

function check(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const schema = request.routeOptions.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
  if (!schema || schema.hide || request.is404) return;
  const where = `${request.method} ${request.routeOptions.url} answered ${reply.statusCode}`;
  const declared = declaredFor(schema.response ?? {}, reply.statusCode) as Record<string, unknown> | undefined;
  if (!declared) {
    violations.push(`${where}, a status its document does not declare`);
    return;
  }
  const type = String(reply.getHeader('content-type') ?? '');
  const content = declared.content as Record<string, { schema: object }> | undefined;
  let body: object | undefined = content ? content[type.split(';')[0]!.trim()]?.schema : (declared as object);
  if (content && !body) {
    violations.push(`${where} with content type "${type}", which its document does not declare`);
    return;
  }
  if (typeof payload !== 'string' || payload === '' || declared.type === 'null') return;
  if (!type.includes('json')) return;
  if (!body) return;
  const validate = validatorOf(body);
  if (!validate(JSON.parse(payload))) {
    violations.push(`${where} with a body its schema refuses: ${ajv.errorsText(validate.errors)}`);
  }
}

export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      check(request, reply, payload);
    } catch (error) {
      violations.push(`${request.method} ${request.url}: the response check failed: ${(error as Error).message}`);
    }
    return payload;
  });
}

const webhookValidators = {
  transaction: ajv.compile(strippedOfIds(TransactionEventPayload)),
  receive: ajv.compile(strippedOfIds(ReceiveEventPayload)),
  refund: ajv.compile(strippedOfIds(RefundEventPayload)),
  transfer: ajv.compile(strippedOfIds(TransferEventPayload)),
  med: ajv.compile(strippedOfIds(MedEventPayload)),
};

function strippedOfIds(schema: object): object {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value)));
}

/**
 * Checks one webhook delivery as a receiver got it against the document's `webhooks` section: the
 * three signature headers, and a body one of the documented payloads accepts.
 */
export function checkWebhookDelivery(headers: Record<string, unknown>, raw: string): void {
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    if (typeof headers[name] !== 'string') violations.push(`a webhook delivery without its ${name} header`);
  }
  const body = JSON.parse(raw) as { event?: string; type?: string };
  const name = body.event ?? body.type;
  const validate =
    body.type === 'RECEIVE' ? webhookValidators.receive
    : body.type === 'REFUND' ? webhookValidators.refund
    : body.type === 'TRANSFER' ? webhookValidators.transfer
    : body.event?.startsWith('Med') ? webhookValidators.med
    : webhookValidators.transaction;
  if (!validate(body)) violations.push(`a webhook body (${name}) its documented payload refuses: ${ajv.errorsText(validate.errors)}`);
}
