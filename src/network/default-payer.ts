import type { Payer } from './pix-network.ts';

/**
 * The payer of money that arrives without one named: the simulator's incoming PIX when its caller
 * names none, and a deposit made without a payer (tests, the demo account's funding).
 */
export const DEFAULT_PAYER: Payer = { name: 'Pagador Sandbox', document: '52998224725', ispb: '00000000' };
