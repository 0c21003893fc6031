import type { Kysely } from 'kysely';
import type { ReadRouting } from '../db/read-routing.ts';
import type { DB } from '../db/schema.ts';
import { createPortalReads, type PortalReads } from './portal-reads.repo.ts';

/** The operators' views (every account's data); every other view takes the account id first. */
const OPERATOR_VIEWS = new Set<keyof PortalReads>(['searchAccounts', 'jobSummary', 'failingDeliveries']);

/**
 * The portal's read-only views on the read replica when it is fresh for the reader (read-routing.ts):
 * a member's views wait for the member's account's own writes, the operators' views for theirs.
 */
export function createRoutedPortalReads(reads: ReadRouting): PortalReads {
  const on = (db: Kysely<DB>) => createPortalReads(db);
  const routed = {} as Record<keyof PortalReads, unknown>;
  const names = Object.keys(createPortalReads(undefined as unknown as Kysely<DB>)) as Array<keyof PortalReads>;
  for (const name of names) {
    routed[name] = (...args: unknown[]) =>
      reads.run(OPERATOR_VIEWS.has(name) ? 'operators' : { accountId: args[0] as number }, (db) => (on(db)[name] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return routed as PortalReads;
}
