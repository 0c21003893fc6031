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

interface Node {
  value: unknown;
  parent: Node | undefined;
  key: string | number | undefined;
}

/**
 * Iterative, so a deeply nested body cannot exhaust the call stack; a field's dotted name is built
 * only when it holds a NUL.
 */
function collect(root: unknown, rootPath: string, out: string[]) {
  const pending: Node[] = [{ value: root, parent: undefined, key: undefined }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) out.push(nameOf(node, rootPath));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], parent: node, key: i });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const child = { value: item, parent: node, key };
        if (key.includes('\u0000')) out.push(nameOf(child, rootPath));
        else pending.push(child);
      }
    }
  }
}

function nameOf(node: Node, rootPath: string): string {
  const keys: Array<string | number> = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
  let name = rootPath;
  for (const key of keys) name += typeof key === 'number' ? `[${key}]` : name ? `.${key}` : key;
  return name;
}
