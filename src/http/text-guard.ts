import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../domain/errors/domain-error.ts';

/**
 * Text PostgreSQL cannot store: the NUL character (U+0000) in text and jsonb, and a lone UTF-16
 * surrogate ("\ud800", which JSON allows but UTF-8 cannot encode) in jsonb. Either one reached SQL and
 * answered 500. It is refused at the edge with a 400 naming the field; the schema validator reports it
 * with the schema's own errors (src/http/validation.ts), and `refuseUnsafeText` covers the request
 * parts a route gives no schema.
 */

export const NUL_TEXT = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_TEXT = 'must not contain a lone UTF-16 surrogate (\\ud800-\\udfff)';

export interface UnsafeText {
  /** JSON-pointer segments of the field (a key that is itself unsafe names the key). */
  path: Array<string | number>;
  reason: string;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function reasonOf(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_TEXT;
  if (LONE_SURROGATE.test(text)) return SURROGATE_TEXT;
  return undefined;
}

interface Node {
  value: unknown;
  parent: Node | undefined;
  key: string | number | undefined;
}

function pathOf(node: Node): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
  return keys;
}

/**
 * Every string and key of a parsed value holding unsafe text, in document order. Iterative, so a
 * deeply nested body cannot exhaust the call stack; a field's path is built only when it is unsafe.
 */
export function findUnsafeText(root: unknown): UnsafeText[] {
  const out: UnsafeText[] = [];
  const pending: Node[] = [{ value: root, parent: undefined, key: undefined }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      const reason = reasonOf(value);
      if (reason) out.push({ path: pathOf(node), reason });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], parent: node, key: i });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const child = { value: item, parent: node, key };
        const reason = reasonOf(key);
        if (reason) out.push({ path: pathOf(child), reason });
        else pending.push(child);
      }
    }
  }
  return out;
}

/** A dotted field name: `details.key`, `splits[0].name`. */
export function dottedName(path: Array<string | number>, root = ''): string {
  let name = root;
  for (const key of path) name += typeof key === 'number' ? `[${key}]` : name ? `.${key}` : key;
  return name;
}

const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

/** preValidation: the request parts no schema validates (their schema validator checks the others). */
export async function refuseUnsafeText(request: FastifyRequest) {
  // Routes that order their own checks (the token routes) judge their input themselves.
  if (request.routeOptions.attachValidation) return;
  const schema = (request.routeOptions.schema ?? {}) as Record<string, unknown>;
  const texts: string[] = [];
  for (const [part, schemaKey] of PARTS) {
    if (schema[schemaKey]) continue;
    for (const unsafe of findUnsafeText(request[part])) texts.push(`${dottedName(unsafe.path) || 'body'} ${unsafe.reason}`);
  }
  if (texts.length > 0) throw new ValidationError(texts);
}
