import { describe, expect, it } from 'vitest';
import { findMedMove, isFinalMedStatus, MED_STATUSES } from '../../src/services/med/med-state-machine.ts';

// Every (from, to, result) combination: exactly these are allowed (decisions 4.6), with these effects.
const ALLOWED: Record<string, { effect: string; event: string | null }> = {
  'OPEN>RECEIVED>-': { effect: 'none', event: null },
  'RECEIVED>ANALYZED>APPROVED': { effect: 'refund', event: 'med_accepted' },
  'RECEIVED>ANALYZED>REJECTED': { effect: 'release', event: 'med_rejected' },
  'OPEN>CANCELLED>-': { effect: 'release', event: null },
  'RECEIVED>CANCELLED>-': { effect: 'release', event: null },
};

describe('MED state machine', () => {
  const results = [null, 'APPROVED', 'REJECTED'] as const;
  for (const from of MED_STATUSES) {
    for (const to of MED_STATUSES) {
      for (const result of results) {
        const key = `${from}>${to}>${result ?? '-'}`;
        it(`${key} is ${ALLOWED[key] ? 'allowed' : 'refused'}`, () => {
          const move = findMedMove(from, to, result);
          if (ALLOWED[key]) expect(move).toMatchObject(ALLOWED[key]!);
          else expect(move).toBeUndefined();
        });
      }
    }
  }

  it('has ANALYZED and CANCELLED as the final statuses', () => {
    expect(MED_STATUSES.filter(isFinalMedStatus)).toEqual(['CANCELLED', 'ANALYZED']);
  });
});
