import { lookup } from 'node:dns/promises';

/** Resolves a host name to its addresses, as the delivery's connection would (the OS resolver). */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });
