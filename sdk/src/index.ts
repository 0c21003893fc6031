export { createPixAdminClient, type AdminPage, type PixAdminClient, type PixAdminClientOptions } from './admin.ts';
export { createPixClient, unwrap, type PixClient, type PixClientOptions } from './client.ts';
export { PixApiError, PixNetworkError, type ApiErrorBody, type OAuthErrorBody, type ShortErrorBody } from './errors.ts';
export { RENEW_BEFORE_MS } from './tokens.ts';
export { createWebhooks, WebhookVerificationError, type WebhookEvent, type Webhooks } from './webhooks.ts';
export type { components, paths, webhooks } from './openapi.ts';
