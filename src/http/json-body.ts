import type { FastifyInstance } from 'fastify';

export class JsonBodyError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
  }
}

// Strings (skipped whole, escapes included) or number literals.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * A number literal that a double cannot hold exactly as written (e.g. 0.1000000000000000001, which
 * JSON.parse would silently turn into 0.1) is refused, so an amount is never rounded on its way in.
 */
export function findInexactNumber(text: string): string | undefined {
  for (const match of text.matchAll(TOKENS)) {
    const literal = match[0];
    if (literal.startsWith('"')) continue;
    if (!sameDecimal(literal, Number(literal))) return literal;
  }
  return undefined;
}

function canonical(literal: string): string {
  let [int = '', frac = ''] = literal.replace(/^-/, '').split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

function sameDecimal(literal: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (/[eE]/.test(literal)) return true; // exponent forms are judged by the schema (they fail 'money')
  const written = canonical(literal);
  const held = canonical(Math.abs(value).toString().includes('e') ? '' : Math.abs(value).toString());
  return written === held || (held === '' && written === '');
}

/** JSON bodies: empty bodies allowed (as no body), malformed ones answer 400, inexact numbers 400. */
export function registerJsonParser(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return done(new JsonBodyError(`The request body is not valid JSON: ${(error as Error).message}`), undefined);
    }
    const inexact = findInexactNumber(text);
    if (inexact) {
      return done(
        new JsonBodyError(`The number ${inexact} cannot be represented exactly; send at most 2 decimal places for amounts`),
        undefined,
      );
    }
    done(null, value);
  });
}
