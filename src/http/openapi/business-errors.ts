/**
 * The statuses a route answers through its business rules (beyond what its inputs and guards imply:
 * see route-docs.ts). Keyed by operationId. The suite's response check
 * (src/http/openapi/response-check.ts) fails on any status a route answers without declaring it, so
 * this table cannot fall behind the code unnoticed where the tests reach.
 */
const BUSINESS_ERRORS: Record<string, number[]> = {
  // Token endpoints: certificate and credential refusals, the credential store failing, and too many
  // failures of the attempt's own key (decisions 7: the client, or the certificate and the address; 429 with Retry-After).
  createToken: [401, 403, 429, 502],
  oauthToken: [429, 502],
  // Rate limited per account (429 with Retry-After and RateLimit headers).
  listMed: [429],
  resendWebhook: [429],
  // Issue 29: replays are rate limited; live streams are bounded per account.
  replayWebhookDeliveries: [429],
  streamEvents: [429],
  streamAccountEvents: [429],
  // Answers "disabled" without reading the body, but a body it cannot parse is still refused.
  registerWebhook: [400, 413, 415],
  // CHARGE_NOT_PAYABLE / PIX_QR_CODE_EXTERNAL_ID_IN_USE: paying a charge of ours on-us.
  createCashOutQrCode: [409],
  createDictTransfer: [409, 422],
  putCob: [409],
  putDevolucao: [409, 422],
  registerCertificate: [409],
  // An email already in use (operators and members share the sign-in namespace).
  createOperator: [409],
  inviteMember: [409],
  // Sandbox: an admin call's accountId (or the MED's PIX) may not exist; states may forbid the move.
  createDeposit: [404],
  openMed: [404],
  registerDictKey: [404, 409],
  payCharge: [409],
  transitionMed: [409],
  refundPayout: [409],
  // Issue 29 item 3: an account of the body that does not exist (or another's), one already on a clock; an advance in progress.
  createTestClock: [404, 409],
  advanceTestClock: [409],
  // Provider adapter (issue 13): an item already assigned; an account that does not exist (404 of the body's accountId).
  assignSuspense: [409],
  // A notice whose signature or timestamp fails.
  receiveProviderNotice: [401],
  // No provider configured.
  runStatementCheck: [404],
};

export const businessErrorsOf = (operationId: string): number[] => BUSINESS_ERRORS[operationId] ?? [];
