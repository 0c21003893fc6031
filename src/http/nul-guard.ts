import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../domain/errors/domain-error.ts';

/**
 * PostgreSQL text cannot hold the NUL character (U+0000): a body field, path value or query value
 * carrying one failed in SQL with a 500. It is refused up front (400 in the family's format), one
 * text per field.
 */
export async function refuseNulCharacters(request: FastifyRequest) {
  // Routes that order their own checks (the token routes) judge their input themselves.
  if (request.routeOptions.attachValidation) return;
  const fields: string[] = [];
  collect(request.params, '', fields);
  collect(request.query, '', fields);
  collect(request.body, '', fields);
  if (fields.length > 0) throw new ValidationError(fields.map((f) => `${f || 'body'} must not contain the NUL character (\\u0000)`));
}

function collect(value: unknown, path: string, out: string[]) {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(path);
    return;
  }
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${path}[${i}]`, out));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const name = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) out.push(name);
    else collect(item, name, out);
  }
}
