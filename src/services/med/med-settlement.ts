import type { SettlementHook } from '../settlement/settlement-hook.ts';

/** A MED return finishes with no event of its own: the MED's own events say what happened. */
export const medReturnSettlement: SettlementHook = { onFinished: async () => [] };
