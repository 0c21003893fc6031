import { randomUUID } from 'node:crypto';
import type { EventType } from '../../db/schema.ts';

/** What marks a test delivery's body: `metadata.test` (transaction events) or the MED's description. */
export const TEST_MARK = { test: true } as const;

const counterpart = {
  name: 'Maria da Silva',
  document: '***.444.777-**',
  bank: { bankISPB: '00000000', bankName: 'Banco do Brasil S.A.', bankCode: '001', accountBranch: '0001', accountNumber: '123456' },
};

/**
 * The body of a test delivery of `event` (the admin's and the portal's "send a test event"): the
 * shape a real delivery of that event has (the document's `webhooks` section), with sample values, a
 * fresh id, and `metadata.test: true` so a receiver can tell it apart. Nothing is stored but the log.
 */
export function testPayload(event: EventType, at: Date): Record<string, unknown> {
  const when = at.toISOString();
  const transactionId = randomUUID();
  const base = {
    status: 'CONFIRMED',
    transactionType: 'PIX',
    transactionId,
    externalId: 'webhook-test',
    endToEndId: 'E99999999' + when.slice(0, 16).replace(/[-T:]/g, '') + 'TESTEVENT00',
    pixKey: null,
    feeAmount: 0,
    originalAmount: 1,
    finalAmount: 1,
    processingDate: when,
    errorCode: null,
    errorMessage: null,
    counterpart,
    metadata: { ...TEST_MARK },
  };
  const parentTransaction = {
    transactionId: randomUUID(),
    externalId: 'webhook-test-parent',
    endToEndId: base.endToEndId,
    processingDate: when,
    wasTotalRefunded: true,
    remainingAmountForRefund: 0,
    metadata: { ...TEST_MARK },
    counterpart,
  };
  switch (event) {
    case 'cash_in':
      return { event: 'CashIn', ...base, movementType: 'CREDIT' };
    case 'cash_out':
      return { event: 'CashOut', ...base, movementType: 'DEBIT' };
    case 'refund_in':
      return { event: 'CashInReversal', ...base, movementType: 'DEBIT', endToEndId: base.endToEndId.replace(/^E/, 'D'), parentTransaction };
    case 'refund_out':
      return { event: 'CashOutReversal', ...base, movementType: 'CREDIT', endToEndId: base.endToEndId.replace(/^E/, 'D'), parentTransaction };
    case 'med_created':
    case 'med_accepted':
    case 'med_rejected': {
      const accepted = event === 'med_accepted';
      const rejected = event === 'med_rejected';
      return {
        event: accepted ? 'MedAccepted' : rejected ? 'MedRejected' : 'MedCreated',
        med: {
          id: 0,
          endToEnd: base.endToEndId,
          status: accepted || rejected ? 'ANALYZED' : 'OPEN',
          reason: 'REFUND_REQUEST',
          cause: 'SCAM',
          description: 'Test event: no MED was opened',
          analysisResult: accepted ? 'APPROVED' : rejected ? 'REJECTED' : null,
          analysisDetails: accepted || rejected ? 'Test event' : null,
          requestingBank: { ispb: '00000000', name: 'Banco do Brasil S.A.' },
          contestedBank: { ispb: '99999999', name: 'PIX Account Sandbox' },
          transaction: { amount: 1, type: 'PIX', transactionType: 'CASH_IN', name: counterpart.name, document: counterpart.document, dateTime: when },
          isReconciled: false,
          originalTransactionId: null,
          createdAt: when,
          updatedAt: when,
        },
      };
    }
  }
}
