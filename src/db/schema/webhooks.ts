import type { ColumnType, Generated, Selectable } from 'kysely';
import type { WebhookEventType as EventType } from '../../domain/closed-lists.ts';
import type { Json, Timestamp } from './columns.ts';
import type { AttemptKind, DeliveryStatus } from '../../domain/closed-lists.ts';

// Tables owned by the webhooks feature; its migrations live in src/db/migrations (200-299).

export interface WebhookHeader {
  key: string;
  value: string;
}

export interface WebhookSecretsTable {
  account_id: number;
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
  created_at: Timestamp;
  /** The secret the last rotation replaced: it still signs, beside `secret`, until `previous_valid_until` (migration 975). */
  previous_secret: ColumnType<string | null, string | null | undefined, string | null>;
  previous_valid_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  rotated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  event_type: EventType;
  url: string;
  headers: Json<WebhookHeader[]>;
  version: Generated<number>;
  is_active: Generated<boolean>;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export type { DeliveryStatus };

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  webhook_id: number;
  account_id: number;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claim_token: string | null;
  /** The claim's lease, on the database's real clock (never the service clock). */
  lease_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookLogsTable {
  id: Generated<number>;
  account_id: number;
  event_id: number | null;
  delivery_id: number | null;
  webhook_id: number | null;
  kind: AttemptKind;
  attempt: number | null;
  url: string;
  status_code: number | null;
  duration_ms: number;
  /** Set on test deliveries, which belong to no stored event (migration 975). */
  event_type: ColumnType<EventType | null, EventType | null | undefined, EventType | null>;
  response_excerpt: string | null;
  error: string | null;
  created_at: Timestamp;
}

export interface WebhookTables {
  webhook_secrets: WebhookSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_logs: WebhookLogsTable;
}

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookLogRow = Selectable<WebhookLogsTable>;
