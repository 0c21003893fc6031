/** An incoming X-Request-Id kept as the request's id: one value of 1-128 printable, header-safe characters. */
const SANE_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && SANE_ID.test(header) ? header : undefined;
}
