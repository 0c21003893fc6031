import type { PayeeReport } from '../../network/pix-network.ts';

/** How an outgoing payment ended, as the network reports it (a notice or a status check). */
export type Outcome = { status: 'settled'; endToEndId: string; payee?: PayeeReport } | { status: 'rejected'; errorCode: string; errorMessage: string };
