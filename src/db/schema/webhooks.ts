// Tables owned by the webhooks feature; its migrations live in src/db/migrations.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhookTables {}
