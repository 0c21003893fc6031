import { formatChecks } from '../format-checks.ts';

const STANDARD = new Set(['date', 'date-time', 'uri', 'uuid', 'email', 'ipv4']);

/** The custom formats of the validator, documented from the same table that checks them. */
const customFormats = Object.entries(formatChecks)
  .filter(([name]) => !STANDARD.has(name))
  .map(([name, check]) => `  - \`${name}\`: ${check.message}`)
  .join('\n');

/**
 * The first thing /docs shows (the document's `info.description`, Markdown): from the demo
 * certificate to a received webhook, then the reference below it.
 */
export const gettingStarted = (base: string) => `
## Getting started

Four steps in the sandbox, from nothing to a signed webhook. \`npm start\` creates a funded demo account
and prints its client id, its secret and where its certificate is (\`./data/demo/client-cert.pem\`).

### 1. Get a token with the demo certificate

Every token is bound to a client certificate (RFC 8705). Behind a TLS proxy the certificate arrives in
\`X-SSL-Client-Cert\`, percent-encoded; send it yourself in the sandbox:

\`\`\`sh
CERT=$(node -e 'process.stdout.write(encodeURIComponent(require("fs").readFileSync(process.argv[1], "utf8")))' ./data/demo/client-cert.pem)
curl -s -X POST ${base}/api/auth/token \\
  -H "X-SSL-Client-Cert: $CERT" -H 'Content-Type: application/json' \\
  -d '{"clientId": "<client id>", "clientSecret": "<client secret>"}'
# {"access_token": "eyJ...", "token_type": "Bearer", "expires_in": 1800}
\`\`\`

Send \`Authorization: Bearer <access_token>\` and the same \`X-SSL-Client-Cert\` with every call. Tokens
live 30 minutes: renew them shortly before. The compatible family takes its token from
\`POST /oauth/token\` (RFC 6749 form, \`grant_type=client_credentials\`); both endpoints are described at
\`/.well-known/oauth-authorization-server\`. To **try it** below: **Authorize** with the \`bearer\` scheme
(paste the token; admin and sandbox routes take \`ADMIN_TOKEN\` in \`admin\`), then **Execute** on any
operation. The browser sends no client certificate: the sandbox accepts that, production
(\`REQUIRE_CERTIFICATE_BOUND_TOKENS\`) refuses it, so there use curl or the SDK with the certificate.

### 2. Receive webhooks

The operator registers a URL for an event (\`cash_in\` here) and reads the account's signing secret
(\`POST /api/webhooks\` does the same for the account itself when \`WEBHOOK_ROUTES_ENABLED=true\`):

\`\`\`sh
curl -s -X POST ${base}/admin/accounts/<account id>/webhooks -H "Authorization: Bearer $ADMIN_TOKEN" \\
  -H 'Content-Type: application/json' -d '{"eventType": "cash_in", "url": "https://example.com/pix/webhooks"}'
curl -s ${base}/admin/accounts/<account id>/webhook-secret -H "Authorization: Bearer $ADMIN_TOKEN"
# {"secret": "whsec_..."}
\`\`\`

Deliveries follow [Standard Webhooks](https://www.standardwebhooks.com/): verify \`webhook-signature\`
(HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\` keyed by the \`whsec_\` secret) before
trusting the body, answer 2xx, and deduplicate on \`webhook-id\`. The *Webhooks* section below lists
every event's body. \`examples/webhook-receiver.ts\` is a receiver that verifies them.

### 3. Make a charge

\`\`\`sh
curl -s -X POST ${base}/api/pix/cash-in -H "Authorization: Bearer $TOKEN" -H "X-SSL-Client-Cert: $CERT" \\
  -H 'Content-Type: application/json' -H 'X-Sandbox-Scenario: pending' \\
  -d '{"transaction": {"value": 150.00, "description": "Order 1042", "externalId": "order-1042"},
       "payer": {"fullName": "Maria da Silva", "document": "11144477735"}}'
# 201 {"transactionId": "...", "status": "PENDING", "pixCode": "000201...6304ABCD", ...}
\`\`\`

\`pixCode\` is the BR Code (copy-and-paste PIX) to show to the payer, as text or as a QR code.

### 4. Pay it, get the webhook

In the sandbox, pay the charge as a payer would:

\`\`\`sh
curl -s -X POST ${base}/sandbox/charges/<transactionId>/pay -H "Authorization: Bearer $TOKEN" \\
  -H "X-SSL-Client-Cert: $CERT" -H 'Content-Type: application/json' -d '{}'
\`\`\`

The charge becomes \`CONFIRMED\`, the balance grows by the amount less the fee, and your \`cash_in\` URL
receives a signed \`CashIn\` event. \`GET /api/pix/transaction/{id}\` shows the same state.

### Errors, retries, amounts

- Amounts are JSON numbers of BRL with at most 2 decimals (\`150.00\`, format \`money\`): a third decimal
  is refused, never rounded.
- Each family has one error envelope: \`ApiError\` on \`/api\`, \`ShortError\` on the compatible family,
  admin and sandbox, \`OAuthError\` on \`/oauth/token\`. \`429\` and \`503\` carry \`Retry-After\`.
- Retry safe requests, and payouts with the same \`externalId\`: money never moves twice.
- Custom formats: \`money\` (above), and the domain's checks, each refused with its text:
${customFormats}
  Everything else uses standard formats (\`date-time\`, \`date\`, \`uuid\`, \`uri\`).
- Versioning: see CHANGELOG.md and docs/api-versioning.md in the repository.

A typed TypeScript client lives in \`sdk/\`; its README starts where this page ends.
`;
