import type { RouteOptions } from 'fastify';
import type { ErrorFormat } from '../errors/formats.ts';
import { errorSchemas } from './error-schemas.ts';
import { businessErrorsOf } from './business-errors.ts';

type Security = Record<string, string[]>[];

/** What the document states about every route of one family (one `family(...)` call in app.ts). */
export interface FamilyDocs {
  format: ErrorFormat;
  /** Security of the family's routes when the route does not state its own (bearer routes do). */
  security: Security;
  /** Statuses every authenticated route of the family can answer (401, and 403 for scoped tokens). */
  authStatuses: number[];
}

const ENVELOPE: Record<ErrorFormat, string> = { full: 'ApiError', short: 'ShortError', oauth: 'OAuthError' };

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names each invalid field',
  401: 'Missing or invalid credentials',
  403: 'Authenticated, but not allowed (scope, certificate or account state)',
  404: 'Not found (also a resource of another account)',
  409: 'Conflicts with the current state (or the idempotency key was used with another body)',
  413: 'Body larger than 1 MiB',
  415: 'Unsupported content type',
  422: 'Well formed, but refused by a business rule (the code says which)',
  429: 'Too many requests: retry after the Retry-After header (RateLimit headers tell the budget)',
  500: 'Unexpected error (the errorId is logged)',
  502: 'The payment network answered unexpectedly',
  503: 'A dependency is unavailable or slow: retry after the Retry-After header',
};

const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'seconds to wait before retrying' } };

const hasPart = (schema: Record<string, unknown>, part: string) => schema[part] !== undefined;

/** The error statuses a route can answer, from what it takes and who may call it. */
export function errorStatusesOf(route: Pick<RouteOptions, 'method' | 'url'>, schema: Record<string, unknown>, family: FamilyDocs, operationId: string): number[] {
  const statuses = new Set<number>([500, 503]);
  const takesBody = hasPart(schema, 'body') || family.format === 'oauth';
  if (takesBody || hasPart(schema, 'querystring') || hasPart(schema, 'params') || hasPart(schema, 'headers')) statuses.add(400);
  if (takesBody) {
    statuses.add(413);
    statuses.add(415);
  }
  const secured = Array.isArray(schema.security) && (schema.security as Security).some((s) => Object.keys(s).length > 0);
  if (secured) for (const status of family.authStatuses) statuses.add(status);
  if (route.url.includes(':')) statuses.add(404);
  for (const status of businessErrorsOf(operationId)) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** What a route says of one of its error answers (`{ ...ShortError, description }`), when it says more than the envelope's own text. */
function ownDescription(declared: { $id?: string; description?: string } | undefined): string | undefined {
  const shared = errorSchemas.find((s) => s.$id === declared?.$id) as { description?: string } | undefined;
  return declared?.description !== undefined && declared.description !== shared?.description ? declared.description : undefined;
}

const isErrorSchema = (value: unknown) => errorSchemas.some((s) => s === value || (value as { $id?: string })?.$id === s.$id);

/**
 * Completes a route's schema for the OpenAPI document: its operationId, its family's security when it
 * states none, and every error status it can answer with the family's shared envelope (referenced).
 */
export function documentRoute(family: FamilyDocs, operationName: () => string | undefined) {
  return (route: RouteOptions) => {
    if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
    const schema = { ...(route.schema as Record<string, unknown>) };
    const method = Array.isArray(route.method) ? route.method[0]! : route.method;
    schema.operationId ??= operationName() ?? fallbackOperationId(method, route.url);
    schema.security ??= family.security;
    const response: Record<string, unknown> = { ...((schema.response as Record<string, unknown>) ?? {}) };
    const envelope = ENVELOPE[family.format];
    // A route that names an envelope itself gets the shared reference too (one copy per `$id`).
    const declaredErrors = Object.keys(response).filter((status) => isErrorSchema(response[status])).map(Number);
    for (const status of new Set([...errorStatusesOf(route, schema, family, schema.operationId as string), ...declaredErrors])) {
      const declared = response[status] as { $id?: string } | undefined;
      if (declared !== undefined && !isErrorSchema(declared)) continue;
      response[status] = {
        // A route may name another family's envelope for one status; that reference is kept.
        $ref: `${declared?.$id ?? envelope}#`,
        description: ownDescription(declared) ?? DESCRIPTIONS[status] ?? 'Error',
        ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      };
    }
    schema.response = response;
    route.schema = schema;
  };
}

/** `POST /api/pix/cash-in` → `postApiPixCashIn`: only for a route registered outside a route module. */
function fallbackOperationId(method: string, url: string): string {
  const words = `${method.toLowerCase()} ${url}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** `createCashInRoute` → `createCashIn`: a route module's exported name, already unique and in the domain's words. */
export const operationIdOfModule = (name: string) => (name.endsWith('Route') ? name.slice(0, -'Route'.length) : name) || undefined;
