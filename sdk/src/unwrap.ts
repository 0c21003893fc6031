import { PixApiError } from './errors.ts';

/** The data of an openapi-fetch answer, or a thrown PixApiError with the spec's code. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw PixApiError.from(response.status, error, response.headers.get('x-request-id') ?? undefined);
  return data as T;
}
