import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { centsFromNumber } from '../domain/money.ts';
import { isUuidV4 } from '../domain/ids.ts';
import { addFormatChecks, formatChecks, type FormatRegistry } from './format-checks.ts';
import { findUnsafeText } from './text-guard.ts';

/**
 * Custom formats shared by every schema. A schema says `format: 'money'` and both validation and the
 * OpenAPI document know the rule.
 */
const formatMessages: Record<string, string> = {
  money: 'must be a number with at most 2 decimal places',
  'uuid-v4': 'must be a UUID v4',
  email: 'must be a valid e-mail address',
  uri: 'must be a valid URL',
  uuid: 'must be a UUID',
  ...Object.fromEntries(Object.entries(formatChecks).map(([name, check]) => [name, check.message])),
};

/**
 * Every format the service's schemas use, with the rules request validation applies: ajv-formats'
 * standard ones, `money`, `uuid-v4` and the domain checks (`document`, `dict-key`, ...). Anything
 * else that validates against the service's schemas (the suite's checks of the OpenAPI document's
 * examples) registers them here too, instead of ajv ignoring an unknown format with a warning.
 */
export function addServiceFormats(ajv: FormatRegistry): void {
  addFormats.default(ajv as Ajv);
  ajv.addFormat('money', { type: 'number', validate: (v: number) => centsFromNumber(v) !== undefined });
  ajv.addFormat('uuid-v4', { type: 'string', validate: (v: string) => isUuidV4(v) });
  addFormatChecks(ajv);
}

/** The names of the service's own formats (what a serializer must know exists, without checking it). */
export function serviceFormatNames(): string[] {
  return ['money', 'uuid-v4', ...Object.keys(formatChecks)];
}

function newAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addServiceFormats(ajv);
  return ajv;
}

// Bodies are strict JSON: a string is never silently taken for a number. Query strings, path
// parameters and headers are text by nature, so those are coerced.
const strictAjv = newAjv(false);
const coercingAjv = newAjv(true);

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  const validate = ajv.compile(withSafeIntegers(schema) as object) as ValidateFunction;
  return httpPart === 'headers' ? validate : withTextGuard(validate);
};

/**
 * The schema's errors plus unsafe text (NUL, lone surrogates) anywhere in the part, in one answer. The
 * unsafe-text error comes first, so it is the text its field gets.
 */
function withTextGuard(validate: ValidateFunction) {
  const guarded = (data: unknown, cxt?: unknown) => {
    const valid = (validate as (d: unknown, c?: unknown) => boolean)(data, cxt);
    const unsafe = findUnsafeText(data).map(
      (u): ErrorObject => ({ keyword: 'unsafeText', instancePath: u.path.map((k) => `/${String(k).replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''), schemaPath: '', params: {}, message: u.reason }),
    );
    const errors = [...unsafe, ...(valid ? [] : (validate.errors ?? []))];
    guarded.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  guarded.errors = null as ErrorObject[] | null;
  // Fastify passes the parent context (so ajv may replace a root value) only to ajv's own functions.
  Object.assign(guarded, { schemaEnv: validate.schemaEnv });
  return guarded;
}

/**
 * ajv's `integer` accepts Infinity ("1e400" in a query string) and integers no bigint column holds
 * (1e20): those reached SQL and answered 500. Every integer without its own maximum is bounded by
 * Number.MAX_SAFE_INTEGER, so they answer 400 naming the field. The route's schema is not changed.
 */
export function withSafeIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withSafeIntegers);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withSafeIntegers(value);
  if (out.type === 'integer' && out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
  return out;
}

/** A dotted field name for an ajv error: `details.key`, `splits[0].value`. */
function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  let name = '';
  for (const part of parts) name += /^\d+$/.test(part) ? `[${part}]` : name ? `.${part}` : part;
  return name;
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return `must be ${/^[aeiou]/.test(p.type) ? 'an' : 'a'} ${p.type}`;
    case 'minimum':
      return `must be greater than or equal to ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'maximum':
      return `must be less than or equal to ${p.limit}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'minItems':
      return `must have at least ${p.limit} items`;
    case 'maxItems':
      return `must have at most ${p.limit} items`;
    case 'maxProperties':
      return `must have at most ${p.limit} keys`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return formatMessages[p.format] ?? `must match the format ${p.format}`;
    case 'pattern':
      return 'has an invalid format';
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    case 'additionalProperties':
      return `must not have the property ${p.additionalProperty}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * One text per invalid field, in the order the fields failed. `anyOf`/`oneOf` wrappers are dropped
 * in favour of the branch errors they summarise.
 */
export function validationMessages(errors: ErrorObject[], context?: string): string[] {
  const byField = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const field = fieldOf(error) || context || 'body';
    byField.set(field, [...(byField.get(field) ?? []), error]);
  }
  const texts: string[] = [];
  for (const [field, list] of byField) {
    // A union of literals (TypeBox `Type.Union([Type.Literal(...)])`) fails as anyOf + one const per branch.
    const consts = list.filter((e) => e.keyword === 'const').map((e) => (e.params as { allowedValue: unknown }).allowedValue);
    if (list.some((e) => e.keyword === 'anyOf') && consts.length > 0) {
      texts.push(`${field} must be one of: ${consts.join(', ')}`);
      continue;
    }
    const first = list.find((e) => !['anyOf', 'oneOf', 'if'].includes(e.keyword)) ?? list[0]!;
    texts.push(`${field} ${first.keyword === 'anyOf' || first.keyword === 'oneOf' ? 'is invalid' : describe(first)}`);
  }
  return texts;
}

/** The fields in violation, for error details (`details.violations`). */
export function violations(errors: ErrorObject[], context?: string): Array<{ field: string; message: string }> {
  return validationMessages(errors, context).map((text) => {
    const space = text.indexOf(' ');
    return { field: text.slice(0, space), message: text.slice(space + 1) };
  });
}

/**
 * Fastify validates a request's parts in order (path parameters, body, query string) and stops at
 * the first part that fails. The parts after it, judged here when the first one failed, so one answer
 * names every invalid field (issue 17 item 3): a bad txid and a bad amount are reported together.
 * Headers are left out (Fastify lower-cases their schema first; their rules are the route's own).
 */
const LATER_PARTS: Record<string, Array<'body' | 'querystring'>> = { params: ['body', 'querystring'], body: ['querystring'] };
const laterValidators = new WeakMap<object, ValidateFunction>();

export function laterPartMessages(request: FastifyRequest, failedPart: string | undefined): string[] {
  const schema = request.routeOptions?.schema as Record<string, unknown> | undefined;
  if (!schema || failedPart === undefined) return [];
  const texts: string[] = [];
  for (const part of LATER_PARTS[failedPart] ?? []) {
    const partSchema = schema[part];
    if (!partSchema || typeof partSchema !== 'object' || (part === 'body' && 'content' in partSchema)) continue;
    let validate = laterValidators.get(partSchema);
    if (!validate) {
      validate = validatorCompiler({ schema: partSchema, httpPart: part, method: request.method, url: request.routeOptions.url ?? '' }) as ValidateFunction;
      laterValidators.set(partSchema, validate);
    }
    // A copy: ajv may coerce values or fill defaults in what it validates.
    const data = part === 'body' ? request.body : request.query;
    let copy: unknown;
    try {
      copy = data === undefined ? undefined : structuredClone(data);
    } catch {
      continue;
    }
    if (!validate(copy)) texts.push(...validationMessages(validate.errors ?? [], part));
  }
  return texts;
}
