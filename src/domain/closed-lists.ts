/**
 * The closed lists of the service: every value a stored column, an event or an API field may take.
 * Each list is written here once; the database's CHECK constraints (src/db/closed-list-checks.ts,
 * applied by `migrate`), the TypeScript types, the OpenAPI enums and the portal's lists derive from
 * it. test/db/closed-lists.test.ts compares the migrated database's CHECK constraints with it.
 */

/** The webhook events an account can subscribe to (spec: "Eventos"), in the spec's order. */
export const WEBHOOK_EVENT_TYPES = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A transaction's status as every family shows it. */
export const TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'ERROR'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * The statuses a transaction ends in: a PENDING one moves once, to one of these, and never again
 * (every finishing statement is conditional on status = 'PENDING').
 */
export const FINAL_TRANSACTION_STATUSES = ['CONFIRMED', 'ERROR'] as const satisfies readonly Exclude<TransactionStatus, 'PENDING'>[];
export type FinalTransactionStatus = (typeof FINAL_TRANSACTION_STATUSES)[number];

/** What a transaction is: money in (PAYMENT), out (WITHDRAW), and the two refund directions. */
export const TRANSACTION_KINDS = ['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** The API family a transaction was created through (its answers keep that family's shape). */
export const TRANSACTION_FAMILIES = ['api', 'bacen'] as const;
export type TransactionFamily = (typeof TRANSACTION_FAMILIES)[number];

/** DICT key types, as stored (an account's keys, the sandbox directory). */
export const DICT_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export type DictKeyType = (typeof DICT_KEY_TYPES)[number];

/** Key types of the public family's requests (`details.keyType`): DOCUMENT and RANDOM stand for CPF/CNPJ and EVP. */
export const PUBLIC_KEY_TYPES = ['DOCUMENT', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PublicKeyType = (typeof PUBLIC_KEY_TYPES)[number];

export const ACCOUNT_TYPES = ['INDIVIDUAL', 'COMPANY'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** An account's standing (issue 30): a SUSPENDED one keeps its reads and incoming PIX, but moves no money out. */
export const ACCOUNT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** How often an account's split payouts leave (decisions: split frequency). */
export const SPLIT_FREQUENCIES = ['IMMEDIATE', 'HOURLY', 'DAILY'] as const;
export type SplitFrequency = (typeof SPLIT_FREQUENCIES)[number];

/** The two kinds of charge: a public-family cash-in and a compatible-family cob. */
export const CHARGE_KINDS = ['cash_in', 'cob'] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

/** A charge's status (the central bank's /cob statuses). */
export const CHARGE_STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** A devolução's nature (the central bank's /devolucao). */
export const REFUND_NATURES = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE'] as const;
export type RefundNature = (typeof REFUND_NATURES)[number];

/** A MED (special return mechanism) case. */
export const MED_STATUSES = ['OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED'] as const;
export type MedStatus = (typeof MED_STATUSES)[number];
export const MED_REASONS = ['REFUND_REQUEST', 'REFUND_CANCELLATION'] as const;
export type MedReason = (typeof MED_REASONS)[number];
export const MED_ANALYSIS_RESULTS = ['APPROVED', 'REJECTED'] as const;
export type MedAnalysisResult = (typeof MED_ANALYSIS_RESULTS)[number];

/** The kinds of a debit: a payout (WITHDRAW) or a refund given back (REFUND_IN). */
export const DEBIT_KINDS = ['WITHDRAW', 'REFUND_IN'] as const satisfies readonly TransactionKind[];
export type DebitKind = (typeof DEBIT_KINDS)[number];

/**
 * Where a debit comes from (`transactions.origin` of a WITHDRAW or REFUND_IN row): a cash-out by key
 * or QR code, a direct transfer (/dict/pix), a charge's split payout, a refund-in, a devolução, a MED
 * return. Each origin's admission rules (src/services/payouts/debit-origins.ts) and settlement rules
 * (src/services/settlement/origin-settlement.ts) are tables over this list: a missing entry does not compile.
 */
export const DEBIT_ORIGINS = ['cash_out', 'cash_out_qrcode', 'dict', 'split', 'refund_in', 'devolucao', 'med'] as const;
export type DebitOrigin = (typeof DEBIT_ORIGINS)[number];

/**
 * Where a block comes from: money the admission holds on a row that already exists, with no row of
 * its own (a MED's opening block on the disputed PIX). Not a debit origin: nothing settles it as a
 * row of its own (the MED's return or release does), so it has admission rules only
 * (BLOCK_ORIGIN_RULES, src/services/payouts/debit-origins.ts).
 */
export const BLOCK_ORIGINS = ['med_block'] as const;
export type BlockOrigin = (typeof BLOCK_ORIGINS)[number];

/**
 * What the one debit admission (admit_payouts and debit_item_check, src/db/functions/) answers per
 * item: admitted and held, kept as ERROR by its origin's rule (`failed`), a block's amount held
 * (`blocked`, a block item's only success), or a refusal.
 * test/payouts/admission-wire.test.ts checks that the SQL answers exactly these.
 */
export const ADMISSION_OUTCOMES = [
  'admitted', 'failed', 'blocked', 'NOT_FOUND', 'ACCOUNT_SUSPENDED', 'PIX_INVALID_AMOUNT', 'PIX_TRANSACTION_LIMIT_EXCEEDED', 'PIX_DAILY_LIMIT_EXCEEDED', 'PIX_NIGHT_LIMIT_EXCEEDED',
  'DUPLICATE', 'INSUFFICIENT', 'BUSY',
] as const;
export type AdmissionOutcome = (typeof ADMISSION_OUTCOMES)[number];

/** The `event` of a transaction's webhook payload (the provider's names): one owner for them. */
export const TRANSACTION_EVENT_NAMES = ['CashIn', 'CashOut', 'CashInReversal', 'CashOutReversal'] as const;
export type TransactionEventName = (typeof TRANSACTION_EVENT_NAMES)[number];

/** The `event` of a MED's webhook payload, and the webhook event each one is sent as. */
export const MED_EVENT_NAMES = ['MedCreated', 'MedAccepted', 'MedRejected'] as const;
export type MedEventName = (typeof MED_EVENT_NAMES)[number];
export const MED_EVENT_NAME_OF = { med_created: 'MedCreated', med_accepted: 'MedAccepted', med_rejected: 'MedRejected' } as const satisfies Record<Extract<WebhookEventType, `med_${string}`>, MedEventName>;

/** Key types of a split's `pixKeyType` (the public family's charge splits). */
export const SPLIT_KEY_TYPES = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'RANDOM'] as const;
export type SplitKeyType = (typeof SPLIT_KEY_TYPES)[number];

/** The two Brazilian tax documents. */
export const DOCUMENT_TYPES = ['CPF', 'CNPJ'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The two buckets of an account's balance in the ledger. */
export const BALANCE_BUCKETS = ['available', 'blocked'] as const;
export type BalanceBucket = (typeof BALANCE_BUCKETS)[number];

/** A durable job still due, or given up after its attempts. */
export const JOB_STATUSES = ['pending', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A webhook delivery's status. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why a webhook attempt was made: the relay, an account's resend, a test delivery. */
export const ATTEMPT_KINDS = ['delivery', 'resend', 'test'] as const;
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

/** Which deliveries a replay queues again (issue 29): those that failed for good, or every finished one. API field only. */
export const REPLAY_STATUSES = ['failed', 'all'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/** Who a portal person is. */
export const PORTAL_ROLES = ['OPERATOR', 'MEMBER'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

/** A test clock's status (issue 29 item 3): `advancing` while what fell due for its accounts runs. */
export const TEST_CLOCK_STATUSES = ['ready', 'advancing'] as const;
export type TestClockStatus = (typeof TEST_CLOCK_STATUSES)[number];
