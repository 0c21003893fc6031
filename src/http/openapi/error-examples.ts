import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/errors/catalogue.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { fullEnvelope, oauthForm, shortForm } from '../errors/formats.ts';
import { toProblem } from '../errors/problem.ts';
import { PROVIDER_UNAVAILABLE_SCENARIO } from '../../domain/sandbox-scenarios.ts';
import { oauthAnswerOf } from '../routes/oauth/oauth-error.ts';
import { addServiceFormats, validationMessages } from '../validation.ts';

/**
 * One realistic example per error status of each operation, in the operation's own envelope: the
 * answer the service gives, built by the same code that writes real errors (the catalogue, `toProblem`
 * and the family's format). A 400 is what the schema says of an empty body (or of a bad path value);
 * other statuses take the operation's own business code where it has one (OPERATION_ERRORS), else
 * the status's usual refusal (STATUS_ERRORS).
 */

type Envelope = 'ApiError' | 'ShortError' | 'OAuthError';
interface ErrorSpec {
  code: ErrorCode;
  message?: string;
  details?: Record<string, unknown>;
}

const AT = new Date('2026-11-20T15:00:00.000Z');
const ERROR_ID = '0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f';
const ACCOUNT = 'Account 2 not found';
const PAID = 'The charge cannot be paid: it was already paid';
const PROVIDER_DOWN: ErrorSpec = { code: 'PROVIDER_UNAVAILABLE', details: { provider: 'sandbox', scenario: PROVIDER_UNAVAILABLE_SCENARIO } };

/** What each status usually means, for operations with nothing more specific to say. */
const STATUS_ERRORS: Record<number, (op: { admin: boolean; sandbox: boolean; accountPath: boolean; scope?: string }) => ErrorSpec> = {
  401: (op) =>
    op.sandbox
      ? { code: 'UNAUTHORIZED', message: "Send the account's bearer token, or the admin token with accountId" }
      : op.admin
        ? { code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <ADMIN_TOKEN>' }
        : { code: 'UNAUTHORIZED' },
  403: (op) => (op.scope ? { code: 'FORBIDDEN', details: { requiredScope: op.scope }, message: `This route needs the scope ${op.scope}` } : { code: 'FORBIDDEN' }),
  404: (op) => (op.accountPath ? { code: 'NOT_FOUND', message: ACCOUNT } : { code: 'NOT_FOUND' }),
  409: () => ({ code: 'CONFLICT' }),
  413: () => ({ code: 'PAYLOAD_TOO_LARGE' }),
  415: () => ({ code: 'UNSUPPORTED_MEDIA_TYPE' }),
  422: () => ({ code: 'UNPROCESSABLE' }),
  429: () => ({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 42 } }),
  500: () => ({ code: 'INTERNAL' }),
  502: () => ({ code: 'PUB_AUTH_UPSTREAM_ERROR' }),
  503: () => ({ code: 'SERVICE_UNAVAILABLE', details: { retryAfterSeconds: 1 } }),
};

/** The business refusals of operations, by operationId and status (the texts the services write). */
const OPERATION_ERRORS: Record<string, Record<number, ErrorSpec>> = {
  createToken: {
    400: { code: 'PUB_CERT_HEADER_MISSING' },
    401: { code: 'PUB_INVALID_CREDENTIALS' },
    403: { code: 'PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT' },
    429: { code: 'RATE_LIMITED', message: 'Too many failed authentication attempts for this client or from this address; retry after 42 seconds.', details: { retryAfterSeconds: 42 } },
    503: { code: 'PUB_AUTH_UPSTREAM_UNAVAILABLE' },
  },
  oauthToken: {
    401: { code: 'PUB_INVALID_CREDENTIALS' },
    429: { code: 'RATE_LIMITED', message: 'Too many failed authentication attempts for this client or from this address; retry after 42 seconds.', details: { retryAfterSeconds: 42, hint: 'Too many failed attempts; retry after 42 s.' } },
    502: { code: 'PUB_AUTH_UPSTREAM_ERROR' },
    503: { code: 'PUB_AUTH_UPSTREAM_UNAVAILABLE' },
  },
  metrics: {
    401: { code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <METRICS_TOKEN>' },
    404: { code: 'NOT_FOUND', message: 'Metrics are switched off in production: set METRICS_TOKEN to read them with it' },
  },
  createCashIn: { 500: PROVIDER_DOWN },
  createCashOut: { 500: PROVIDER_DOWN },
  createCashOutQrCode: { 409: { code: 'CHARGE_NOT_PAYABLE', message: PAID }, 500: PROVIDER_DOWN },
  createRefundIn: { 404: { code: 'NOT_FOUND', message: 'Original transaction not found, or not a received PIX' }, 500: PROVIDER_DOWN },
  getTransaction: { 404: { code: 'NOT_FOUND', message: 'Transaction not found' } },
  resendWebhook: { 404: { code: 'WEBHOOK_TRANSACTION_NOT_FOUND' } },
  createDictTransfer: { 409: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT' }, 422: { code: 'IDEMPOTENCY_KEY_REUSED' } },
  getDictTransfer: { 404: { code: 'NOT_FOUND', message: 'Transfer not found' } },
  putCob: { 404: { code: 'NOT_FOUND', message: ACCOUNT }, 409: { code: 'CHARGE_TXID_IN_USE' } },
  getCob: { 404: { code: 'NOT_FOUND', message: 'Charge cobexemplo000000000000000001 not found' } },
  patchCob: { 404: { code: 'NOT_FOUND', message: 'Charge cobexemplo000000000000000001 not found' } },
  putDevolucao: {
    404: { code: 'NOT_FOUND', message: 'Original transaction not found, or not a received PIX' },
    409: { code: 'DEVOLUCAO_ID_IN_USE' },
    422: { code: 'DEVOLUCAO_DEADLINE_EXCEEDED' },
  },
  getDevolucao: { 404: { code: 'NOT_FOUND', message: 'Devolucao not found' } },
  getLocation: { 404: { code: 'NOT_FOUND', message: 'Location 891ffb7d46eddedf7151694c17f1ec37 not found' } },
  revokeCertificate: { 404: { code: 'NOT_FOUND', message: 'No active certificate with fingerprint 3f1c2b7e8d4a4c6f9b2e1a5d7c9e0f243f1c2b7e8d4a4c6f9b2e1a5d7c9e0f24' } },
  registerCertificate: { 409: { code: 'CONFLICT', message: 'Certificate 3f1c2b7e8d4a4c6f9b2e1a5d7c9e0f243f1c2b7e8d4a4c6f9b2e1a5d7c9e0f24 is already registered' } },
  deleteWebhook: { 404: { code: 'WEBHOOK_NOT_FOUND' } },
  createOperator: { 409: { code: 'CONFLICT', message: 'A portal user with email ops@example.com already exists' } },
  inviteMember: { 409: { code: 'CONFLICT', message: 'A portal user with email owner@example.com already exists' } },
  assignSuspense: { 404: { code: 'NOT_FOUND', message: 'Suspense item 7 not found' }, 409: { code: 'CONFLICT', message: 'Suspense item 7 was already assigned to account 2' } },
  runStatementCheck: { 404: { code: 'NOT_FOUND', message: 'No provider is configured (PIX_NETWORK=provider)' } },
  payCharge: { 404: { code: 'NOT_FOUND', message: 'Charge 6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b not found' }, 409: { code: 'CHARGE_NOT_PAYABLE', message: PAID } },
  refundPayout: { 404: { code: 'NOT_FOUND', message: 'Payout not found' }, 409: { code: 'PAYOUT_NOT_REFUNDABLE' } },
  registerDictKey: { 404: { code: 'NOT_FOUND', message: ACCOUNT }, 409: { code: 'CONFLICT', message: 'The key belongs to an account of this service' } },
  openMed: { 404: { code: 'NOT_FOUND', message: 'No received PIX of this account has that endToEndId' } },
  transitionMed: { 404: { code: 'NOT_FOUND', message: 'MED 7 not found' }, 409: { code: 'MED_INVALID_TRANSITION' } },
  createDeposit: { 404: { code: 'NOT_FOUND', message: ACCOUNT } },
};

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}
export interface OperationFacts {
  operationId: string;
  method: string;
  /** The document's path (`/api/pix/transaction/{id}`). */
  path: string;
  security: Array<Record<string, string[]>>;
  parameters: Parameter[];
  body: Schema | undefined;
  components: Record<string, unknown>;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
addServiceFormats(ajv);

/** What request validation answers for an empty body, or for an over-long value in the first path or query parameter. */
function validationExample(op: OperationFacts): string[] {
  const check = (schema: Schema, value: unknown, context: string): string[] => {
    // The document states `x-one-of-fields` again as a standard `oneOf`; the keyword alone words the refusal.
    const { oneOf, ...rest } = schema;
    const own = schema['x-one-of-fields'] !== undefined ? rest : { ...rest, ...(oneOf !== undefined ? { oneOf } : {}) };
    try {
      const validate = ajv.compile({ ...own, components: op.components });
      return validate(value) ? [] : validationMessages(validate.errors ?? [], context);
    } catch {
      return [];
    }
  };
  if (op.body) {
    const texts = check(op.body, {}, 'body');
    if (texts.length > 0) return texts;
  }
  for (const part of ['path', 'query']) {
    for (const parameter of op.parameters.filter((p) => p.in === part && p.schema)) {
      const texts = check({ type: 'object', properties: { [parameter.name]: parameter.schema } }, { [parameter.name]: 'x'.repeat(300) }, part);
      if (texts.length > 0) return texts;
    }
  }
  return ['The request is invalid.'];
}

/** The path with realistic values in its parameters (the error envelope echoes it). */
const concretePath = (path: string) =>
  path
    .replace('{transactionIdentifier}', '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b')
    .replace('{txid}', 'cobexemplo000000000000000001')
    .replace('{e2eid}', 'E18236120202611201459s0a1b2c3d4e')
    .replace(/\{id\}/g, () => (path.startsWith('/admin/accounts') ? '2' : path.startsWith('/admin/') || path.includes('/med/') ? '7' : '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b'))
    .replace(/\{[^}]+\}/g, 'example');

function specOf(op: OperationFacts, status: number): ErrorSpec | ValidationError {
  const own = OPERATION_ERRORS[op.operationId]?.[status];
  if (own) return own;
  if (status === 400) return new ValidationError(validationExample(op));
  const schemes = op.security.flatMap((s) => Object.entries(s));
  const scope = schemes.find(([name]) => name === 'bearer')?.[1][0];
  const facts = {
    admin: schemes.some(([name]) => name === 'admin'),
    sandbox: op.path.startsWith('/sandbox/'),
    accountPath: op.path.startsWith('/admin/accounts/{id}'),
    ...(scope ? { scope } : {}),
  };
  return (STATUS_ERRORS[status] ?? (() => ({ code: 'INTERNAL' }) as ErrorSpec))(facts);
}

/** The body the service answers with for this status of this operation, in the envelope named. */
export function errorExample(op: OperationFacts, status: number, envelope: Envelope): unknown {
  const spec = specOf(op, status);
  const error = spec instanceof ValidationError ? spec : new DomainError(spec.code, spec.details, spec.message);
  const problem = toProblem(error);
  // The token endpoint maps the token checks itself (RFC 6749 codes); anything else is the family's form.
  if (envelope === 'OAuthError') return oauthAnswerOf(error)?.body ?? oauthForm(problem);
  if (envelope === 'ShortError') return shortForm(problem);
  const request = { url: concretePath(op.path), method: op.method.toUpperCase(), id: ERROR_ID } as unknown as FastifyRequest;
  return fullEnvelope(problem, request, AT);
}
