import type { MedAnalysisResult, MedStatus } from '../../db/schema/refunds.ts';

/** What a MED move does to the money blocked for it (decisions 4.6). */
export type MedEffect = 'none' | 'refund' | 'release';

export interface MedMove {
  from: MedStatus;
  to: MedStatus;
  /** Required on (and only on) the move to ANALYZED. */
  analysisResult: MedAnalysisResult | null;
  effect: MedEffect;
  /** The webhook event the move emits, if any. */
  event: 'med_accepted' | 'med_rejected' | null;
}

/**
 * Every allowed move, and nothing else: OPEN -> RECEIVED (analysis started) -> ANALYZED with a
 * result; OPEN or RECEIVED -> CANCELLED (the requesting bank withdraws). ANALYZED and CANCELLED are
 * final. APPROVED returns the blocked money as a refund; REJECTED and CANCELLED release it.
 */
export const MED_MOVES: readonly MedMove[] = [
  { from: 'OPEN', to: 'RECEIVED', analysisResult: null, effect: 'none', event: null },
  { from: 'RECEIVED', to: 'ANALYZED', analysisResult: 'APPROVED', effect: 'refund', event: 'med_accepted' },
  { from: 'RECEIVED', to: 'ANALYZED', analysisResult: 'REJECTED', effect: 'release', event: 'med_rejected' },
  { from: 'OPEN', to: 'CANCELLED', analysisResult: null, effect: 'release', event: null },
  { from: 'RECEIVED', to: 'CANCELLED', analysisResult: null, effect: 'release', event: null },
];

export { MED_STATUSES } from '../../domain/closed-lists.ts';

/** The move from `from` to `to` with that result, or undefined when the state machine forbids it. */
export function findMedMove(from: MedStatus, to: MedStatus, analysisResult: MedAnalysisResult | null): MedMove | undefined {
  return MED_MOVES.find((m) => m.from === from && m.to === to && m.analysisResult === analysisResult);
}

export const isFinalMedStatus = (status: MedStatus) => !MED_MOVES.some((m) => m.from === status);
