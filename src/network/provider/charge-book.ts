import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * The charges registered at the provider (provider_charges): a CashIn notice names one of ours by
 * its reference; the charge check asks the provider about those still open.
 */
export function createChargeBook(db: Kysely<DB>) {
  return {
    async register(reference: string, expiresAt: Date, at: Date): Promise<void> {
      await db.insertInto('provider_charges').values({ reference, expires_at: expiresAt, registered_at: at }).onConflict((oc) => oc.column('reference').doNothing()).execute();
    },
    async get(reference: string) {
      return db.selectFrom('provider_charges').selectAll().where('reference', '=', reference).executeTakeFirst();
    },
    /** Paid or ended at the provider: nothing more to ask about it. */
    async finish(reference: string, at: Date): Promise<void> {
      await db.updateTable('provider_charges').set({ finished_at: at }).where('reference', '=', reference).where('finished_at', 'is', null).execute();
    },
    async openCount(): Promise<number> {
      const row = await db.selectFrom('provider_charges').select((eb) => eb.fn.countAll<string>().as('n')).where('finished_at', 'is', null).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type ChargeBook = ReturnType<typeof createChargeBook>;
