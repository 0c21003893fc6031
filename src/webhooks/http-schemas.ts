import { Type, type Static } from '@sinclair/typebox';
import type { EventType } from '../db/schema.ts';
import type { WebhookHeader, WebhookRow } from '../db/schema/webhooks.ts';
import { MAX_HEADERS, MAX_URL_LENGTH, type Mode } from './url-policy.ts';
import { WEBHOOK_EVENT_TYPES } from '../domain/closed-lists.ts';

/** HTTP schemas shared by the admin and public webhook routes. */

/** The 7 event names (src/domain/closed-lists.ts). */
export const EVENT_TYPES = WEBHOOK_EVENT_TYPES;

// A plain `enum` (not a union of literals): one clear validation text listing the 7 names.
export const EventTypeSchema = Type.Unsafe<EventType>({ type: 'string', enum: [...EVENT_TYPES], description: 'one of the 7 event names' });

const registrationFields = {
  eventType: EventTypeSchema,
  url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'HTTPS (the sandbox also accepts http://localhost and http://127.0.0.1)' }),
  headers: Type.Optional(
    Type.Array(Type.Object({ key: Type.String({ minLength: 1, maxLength: 100 }), value: Type.String({ maxLength: 1000 }) }), {
      maxItems: MAX_HEADERS,
      description: 'custom headers sent with every delivery; blocked: host, content-length, connection, transfer-encoding, content-type, user-agent, webhook-*',
    }),
  ),
};

export const RegistrationBody = Type.Object(registrationFields);

/**
 * The registration body of a service in `mode`: the URL and header rules of that mode run inside
 * schema validation (`x-webhook-registration`), so an answer names every invalid field at once.
 */
export const registrationBody = (mode: Mode) => Type.Object(registrationFields, { 'x-webhook-registration': { mode } });

export const WebhookView = Type.Object({
  id: Type.Number(),
  type: EventTypeSchema,
  url: Type.String(),
  headers: Type.Record(Type.String(), Type.String()),
  isActive: Type.Boolean(),
  version: Type.Number({ description: 'increments each time the URL is registered again' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const WebhookList = Type.Object({
  accountId: Type.Number(),
  webhooks: Type.Array(WebhookView),
  total: Type.Number(),
});

export function webhookView(row: WebhookRow): Static<typeof WebhookView> {
  const headers: Record<string, string> = {};
  for (const { key, value } of row.headers as WebhookHeader[]) headers[key] = value;
  return {
    id: row.id,
    type: row.event_type,
    url: row.url,
    headers,
    isActive: row.is_active,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function webhookListView(accountId: number, rows: WebhookRow[]): Static<typeof WebhookList> {
  return { accountId, webhooks: rows.map(webhookView), total: rows.length };
}
