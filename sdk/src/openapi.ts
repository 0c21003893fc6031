// Generated from the service's OpenAPI document by openapi-typescript: run `npm run sdk:types`, do not edit.
export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys (JWKS) that verify access tokens */
        get: operations["jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth 2.0 authorization server metadata (RFC 8414) */
        get: operations["oauthMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Account balance (compatible shape) */
        get: operations["getBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List or search accounts (newest first): q matches the name (a part, any case), the document, the id or a PIX key */
        get: operations["listAccounts"];
        put?: never;
        /** Create an account (with a random EVP key) */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An account with its balance, limits and fees */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the account's name (the document, type and keys never change); an empty body changes nothing */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/admin/accounts/{id}/certificates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's client certificates, newest first, revoked ones included (never a private key: the service keeps none) */
        get: operations["listCertificates"];
        put?: never;
        /** Link a client certificate: register a PEM, or send {} to have a key and certificate made */
        post: operations["registerCertificate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's OAuth client credentials, newest first (never a secret: only its hash is kept) */
        get: operations["listCredentials"];
        put?: never;
        /** Create OAuth client credentials (the secret is shown only in this answer) */
        post: operations["createCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/credentials/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the account's credentials: new tokens are refused and the ones it got stop working at once, on every instance */
        delete: operations["revokeCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's events, oldest first, after a cursor (as GET /api/events) */
        get: operations["listAccountEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event of the account (as GET /api/events/{id}) */
        get: operations["getAccountEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's events live, Server-Sent Events (as GET /api/events/stream) */
        get: operations["streamAccountEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/fees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set fees: fixed BRL plus a percent of the amount, rounded half-up to the cent */
        patch: operations["updateFees"];
        trace?: never;
    };
    "/admin/accounts/{id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set cash-out limits (BRL): per transaction, per calendar day, per night */
        patch: operations["updateLimits"];
        trace?: never;
    };
    "/admin/accounts/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's portal members (invited or active), oldest first */
        get: operations["listMembers"];
        put?: never;
        /** Invite a member of the account to the portal: a one-time link (72 h) where they set a password */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member from the account: their portal sessions end at once and their invitation link stops working */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reactivate a suspended account: its money-moving calls work again. Reactivating an active account changes nothing */
        post: operations["reactivateAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/split-frequency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set when the account's non-immediate split shares are paid */
        patch: operations["updateSplitFrequency"];
        trace?: never;
    };
    "/admin/accounts/{id}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend the account: its money-moving calls (cash-out, QR code cash-out, /dict/pix, refunds; API and portal) answer 403 ACCOUNT_SUSPENDED; reads, charges and incoming PIX continue, and payouts already admitted settle. Suspending a suspended account changes nothing */
        post: operations["suspendAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook delivery attempts, newest first: event, transaction, URL, status code, duration, attempt number and next attempt */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhook-deliveries/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue the account's webhook deliveries since a time again (as POST /api/webhook-deliveries/replay) */
        post: operations["replayAccountDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook signing secret (whsec_...), created on first request */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the account's webhook signing secret: until previousSecretValidUntil every delivery is signed by both secrets (two v1 signatures), then by the new one only */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook registrations (active, and those a 410 answer disabled), oldest first */
        get: operations["listAccountWebhooks"];
        put?: never;
        /** Register a webhook URL for one of the account's events (same URL again: new headers and version) */
        post: operations["registerAccountWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/accounts/{id}/webhooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test event to the account's active URLs for that event, signed like a real delivery (metadata.test: true), once, and answer each attempt */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/certificates/{fingerprint}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a certificate (token requests with it then get PUB_CERT_NOT_REGISTERED) */
        delete: operations["revokeCertificate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/ledger/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Checks the double-entry ledger: balanced journals, balances equal to postings, no negative balance */
        get: operations["ledgerCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/network/statement-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Runs the statement check now: our books against the provider's GET /api/balance (recorded for operators) */
        post: operations["runStatementCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/network/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The PIX network: adapter, circuit, token expiry, last notice, payouts awaiting an outcome, last reconciliation, statement check, suspense */
        get: operations["networkStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/network/suspense": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Money received on the pooled account that names no charge of ours, waiting for an operator (newest first) */
        get: operations["listSuspense"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/network/suspense/{id}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assigns money held in suspense to an account: a received PIX ("Pix in", cash_in webhook); 409 when already assigned */
        post: operations["assignSuspense"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The portal operators (back office), oldest first */
        get: operations["listOperators"];
        put?: never;
        /** Create a portal operator (back office): signs in at /portal/sign-in */
        post: operations["createOperator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/operators/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an operator: their portal sessions end at once and they cannot sign in again */
        delete: operations["removeOperator"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the access-token signing key: a new key signs from now (on other instances within 30 s); the old one stays in /.well-known/jwks.json until the tokens it signed have expired */
        post: operations["rotateSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook registration (its pending deliveries are cancelled) */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a client certificate and client credentials for an access token */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Account balance */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's events, oldest first, after a cursor; each payload exactly as its webhook carried it */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event of the account, its payload exactly as its webhook carried it */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's events live (Server-Sent Events); resumable with Last-Event-ID */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/med": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List MEDs (Special Refund Mechanism) */
        get: operations["listMed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pix/cash-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a receiving charge (dynamic BR Code) */
        post: operations["createCashIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pix/cash-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a PIX payment to a key (the final status arrives by webhook or polling) */
        post: operations["createCashOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pix/cash-out-qrcode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pay a PIX QR code (static: its key; dynamic: its charge) */
        post: operations["createCashOutQrCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pix/refund-in/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund a received PIX (refund-in) */
        post: operations["createRefundIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pix/transaction/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Poll one transaction by numeric id, transactionId or externalId */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/resend-webhook/{transactionIdentifier}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resend a transaction's latest webhook now (to its event's URLs, or once to the given url) */
        post: operations["resendWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's transactions, newest first (UTC dates, both ends inclusive, at most 31 days) */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhook-deliveries/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue the account's webhook deliveries since a time again (failed ones, or all), to its active URLs */
        post: operations["replayWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Temporarily disabled: answers an empty list (WEBHOOK_ROUTES_ENABLED=true enables it) */
        get: operations["listWebhooks"];
        put?: never;
        /** Temporarily disabled: answers success false and stores nothing (WEBHOOK_ROUTES_ENABLED=true enables it) */
        post: operations["registerWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Temporarily disabled with the other webhook routes: answers 404 (WEBHOOK_ROUTES_ENABLED=true enables it) */
        delete: operations["unregisterWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cob/{txid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an immediate charge */
        get: operations["getCob"];
        /** Create an immediate charge */
        put: operations["putCob"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Cancel an immediate charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR) */
        patch: operations["patchCob"];
        trace?: never;
    };
    "/dict/pix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a PIX transfer to a key (idempotent by x-idempotency-key) */
        post: operations["createDictTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dict/pix/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A transfer started with POST /dict/pix */
        get: operations["getDictTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process and its event loop answer (never asks the database) */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Public in the sandbox unless METRICS_TOKEN is set; with METRICS_TOKEN, only `Authorization: Bearer` with that token reads them; production without METRICS_TOKEN has them switched off.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** OAuth 2.0 client credentials token (JSON {clientId, clientSecret} or RFC 6749 form) */
        post: operations["oauthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pix/{e2eid}/devolucao/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Look up a refund of a received PIX */
        get: operations["getDevolucao"];
        /** Ask for a refund of a received PIX */
        put: operations["putDevolucao"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/qr/v2/{locationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Charge payload (JWS) behind a dynamic BR Code */
        get: operations["getLocation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database, migrations, scheduler, not shutting down */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/charges/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pay a charge as a simulated payer */
        post: operations["payCharge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move the service clock forward; what falls due (expiries, settlements, retries) then happens */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/deposits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An incoming PIX to the account's key with no charge (a confirmed 'Pix in') */
        post: operations["createDeposit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/dict/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a key in the simulated key directory (a holder at another bank) */
        post: operations["registerDictKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/med": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Another bank opens a MED against a received PIX (the disputed amount is blocked as a precaution) */
        post: operations["openMed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/med/{id}/transition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a MED: OPEN -> RECEIVED -> ANALYZED (APPROVED refunds, REJECTED releases); OPEN|RECEIVED -> CANCELLED */
        post: operations["transitionMed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/payouts/{transactionId}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The receiving bank returns part or all of a payout: a 'Refund out' (CREDIT) */
        post: operations["refundPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/test-clocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Test clocks, newest first: all of them with the admin token, the caller's own with an account token */
        get: operations["listTestClocks"];
        put?: never;
        /** A test clock for some accounts: every time rule of theirs follows it (an account's own token: only itself) */
        post: operations["createTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/test-clocks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A test clock: its time, status and accounts */
        get: operations["getTestClock"];
        put?: never;
        post?: never;
        /** Deletes a test clock; its accounts return to the service clock */
        delete: operations["deleteTestClock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sandbox/test-clocks/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Moves a test clock forward; what falls due for its accounts then happens in order, and its status returns to ready */
        post: operations["advanceTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    cash_in: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment was received (a charge paid, a deposit, an on-us transfer)
         * @description Sent to the URL registered for `cash_in`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["cashInWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    cash_out: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout settled or failed
         * @description Sent to the URL registered for `cash_out`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["cashOutWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    med_accepted: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A MED was accepted: the amount is returned
         * @description Sent to the URL registered for `med_accepted`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["medAcceptedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    med_created: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A MED (special return) was opened against a received payment
         * @description Sent to the URL registered for `med_created`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["medCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    med_rejected: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A MED was rejected
         * @description Sent to the URL registered for `med_rejected`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["medRejectedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    refund_in: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund of a received payment settled or failed
         * @description Sent to the URL registered for `refund_in`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["refundInWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    refund_out: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payout was returned by its receiver
         * @description Sent to the URL registered for `refund_out`. Answer any 2xx within 10 s; anything else is retried with backoff. Verify the signature before trusting the body.
         */
        post: operations["refundOutWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description The error envelope of the /api family
         * @example {
         *       "statusCode": 400,
         *       "timestamp": "2026-11-20T15:00:00.000Z",
         *       "path": "/api/pix/cash-out",
         *       "method": "POST",
         *       "code": "PIX_INSUFFICIENT_BALANCE",
         *       "message": "The available balance does not cover the amount plus fees.",
         *       "userMessage": "Saldo insuficiente para realizar a operação.",
         *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
         *       "error": "Bad Request",
         *       "errorCode": "PIX_INSUFFICIENT_BALANCE"
         *     }
         */
        ApiError: {
            /**
             * @description the business code of the error catalogue, or HTTP_ERROR
             * @example PIX_INSUFFICIENT_BALANCE
             */
            code: string;
            details?: {
                [key: string]: unknown;
            };
            /**
             * @description the HTTP reason phrase
             * @example Bad Request
             */
            error: string;
            errorCode?: string;
            /** @description the request id (also the X-Request-Id header); quote it to support */
            errorId: string;
            /** @description for developers; a list names each invalid field */
            message: string | string[];
            /** @example POST */
            method: string;
            /** @example /api/pix/cash-out */
            path: string;
            /** @example 400 */
            statusCode: number;
            /** Format: date-time */
            timestamp: string;
            /** @description safe to show to the end user */
            userMessage: string;
        };
        Devolucao: {
            descricao?: string;
            horario: {
                liquidacao?: string;
                solicitacao: string;
            };
            id: string;
            motivo?: string;
            natureza: "ORIGINAL" | "RETIRADA" | "MED_OPERACIONAL" | "MED_FRAUDE";
            rtrId: string;
            status: "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";
            /** Format: decimal-amount */
            valor: string;
        };
        Med: {
            analysisDetails: string | null;
            analysisResult: "APPROVED" | "REJECTED" | null;
            cause: string | null;
            contestedBank: {
                ispb: string;
                name: string;
            };
            createdAt: string;
            description: string | null;
            endToEnd: string;
            id: number;
            isReconciled: boolean;
            originalTransactionId: number | null;
            reason: "REFUND_REQUEST" | "REFUND_CANCELLATION";
            requestingBank: {
                ispb: string;
                name: string;
            };
            status: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
            transaction: {
                amount: number;
                dateTime: string;
                document: string | null;
                name: string | null;
                transactionType: string;
                type: string;
            } | null;
            updatedAt: string;
        };
        /** @description med_created, med_accepted and med_rejected */
        MedEvent: {
            event: "MedCreated" | "MedAccepted" | "MedRejected";
            med: {
                analysisDetails: string | null;
                analysisResult: "APPROVED" | "REJECTED" | null;
                cause: string | null;
                contestedBank: {
                    ispb: string;
                    name: string;
                };
                createdAt: string;
                description: string | null;
                endToEnd: string;
                id: number;
                isReconciled: boolean;
                originalTransactionId: number | null;
                reason: "REFUND_REQUEST" | "REFUND_CANCELLATION";
                requestingBank: {
                    ispb: string;
                    name: string;
                };
                status: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
                transaction: {
                    amount: number;
                    dateTime: string;
                    document: string | null;
                    name: string | null;
                    transactionType: string;
                    type: string;
                } | null;
                updatedAt: string;
            };
        };
        /** @description RFC 6749 error (the /oauth/token endpoint) */
        OAuthError: {
            /**
             * @description RFC 6749 section 5.2
             * @example invalid_client
             */
            error: string;
            /** @description the business code of the error catalogue */
            error_code?: string;
            error_description: string;
            /** @description what to send instead */
            hint?: string;
        };
        /** @description cash_in of a paid cob (compatible family, version-2 envelope) */
        ReceiveEvent: {
            data: {
                debtorAccount: {
                    document: string | null;
                    name: string | null;
                };
                endToEndId: string | null;
                id: number;
                payment: {
                    /** @example 150.00 */
                    amount: string;
                    /** @enum {string} */
                    currency: "BRL";
                };
                /** @enum {string} */
                status: "LIQUIDATED";
                txId: string;
            };
            /** @enum {string} */
            type: "RECEIVE";
        };
        /** @description refund_in of a devolução (compatible family, version-2 envelope) */
        RefundEvent: {
            data: {
                /** @enum {string} */
                creditDebitType: "DEBIT";
                endToEndId: string | null;
                id: number;
                payment: {
                    /** @example 150.00 */
                    amount: string;
                    /** @enum {string} */
                    currency: "BRL";
                };
                refunds: {
                    endToEndId: string | null;
                    errorCode?: string | null;
                    errorMessage?: string | null;
                    /** Format: date-time */
                    eventDate: string;
                    id: string;
                    information: string | null;
                    payment: {
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        amount: number;
                        /** @enum {string} */
                        currency: "BRL";
                    };
                    status: "LIQUIDATED" | "ERROR";
                }[];
                status: "REFUNDED" | "ERROR";
                txId: string | null;
            };
            /** @enum {string} */
            type: "REFUND";
        };
        /** @description Short error form (compatible family, admin, sandbox) */
        ShortError: {
            error: string;
            message: string | string[];
            statusCode: number;
        };
        /** TestClock */
        TestClock: {
            /** @description the accounts on this clock */
            accountIds: number[];
            /**
             * Format: date-time
             * @description the time the accounts on the clock see; it moves only when advanced
             */
            frozenTime: string;
            /** Format: uuid */
            id: string;
            name: string | null;
            /** @description `advancing` while what fell due for its accounts runs, then `ready` */
            status: "ready" | "advancing";
        };
        /**
         * @description cash_in, cash_out, refund_in and refund_out of the full family (reversals carry parentTransaction)
         * @example {
         *       "event": "CashIn",
         *       "status": "CONFIRMED",
         *       "transactionType": "PIX",
         *       "movementType": "CREDIT",
         *       "transactionId": "7k2mH9qRt4Wx",
         *       "externalId": "order-1042",
         *       "endToEndId": "E9999999920261120150000000000001",
         *       "pixKey": null,
         *       "feeAmount": 0.5,
         *       "originalAmount": 150,
         *       "finalAmount": 149.5,
         *       "processingDate": "2026-11-20T15:00:02.000Z",
         *       "errorCode": null,
         *       "errorMessage": null,
         *       "counterpart": {
         *         "name": "Maria da Silva",
         *         "document": "***.456.789-**",
         *         "bank": {
         *           "bankISPB": "00000000",
         *           "bankName": "Banco do Brasil S.A.",
         *           "bankCode": "001",
         *           "accountBranch": "0001",
         *           "accountNumber": "123456"
         *         }
         *       },
         *       "metadata": {}
         *     }
         */
        TransactionEvent: {
            counterpart: {
                bank: {
                    accountBranch: string | null;
                    accountNumber: string | null;
                    bankCode: string | null;
                    bankISPB: string | null;
                    bankName: string | null;
                };
                document: string | null;
                name: string | null;
            };
            endToEndId: string | null;
            errorCode: string | null;
            errorMessage: string | null;
            event: "CashIn" | "CashOut" | "CashInReversal" | "CashOutReversal";
            externalId: string | null;
            /**
             * Format: money
             * @description BRL, at most 2 decimals (format money)
             */
            feeAmount: number;
            /**
             * Format: money
             * @description BRL, at most 2 decimals (format money)
             */
            finalAmount: number;
            metadata: {
                [key: string]: unknown;
            };
            movementType: "CREDIT" | "DEBIT";
            /**
             * Format: money
             * @description BRL, at most 2 decimals (format money)
             */
            originalAmount: number;
            parentTransaction?: {
                counterpart: {
                    bank: {
                        accountBranch: string | null;
                        accountNumber: string | null;
                        bankCode: string | null;
                        bankISPB: string | null;
                        bankName: string | null;
                    };
                    document: string | null;
                    name: string | null;
                };
                endToEndId: string | null;
                externalId: string | null;
                metadata: {
                    [key: string]: unknown;
                };
                /** Format: date-time */
                processingDate: string;
                /**
                 * Format: money
                 * @description BRL, at most 2 decimals (format money)
                 */
                remainingAmountForRefund: number;
                transactionId: string;
                wasTotalRefunded: boolean;
            };
            pixKey: string | null;
            /** Format: date-time */
            processingDate: string;
            /**
             * @description PENDING, CONFIRMED or ERROR
             * @example CONFIRMED
             */
            status: string;
            transactionId: string;
            /** @enum {string} */
            transactionType: "PIX";
        };
        /** @description cash_out of a POST /dict/pix transfer (compatible family, version-2 envelope) */
        TransferEvent: {
            data: {
                /** @enum {string} */
                creditDebitType: "DEBIT";
                creditorAccount: {
                    document: string | null;
                    ispb: string | null;
                    name: string | null;
                };
                endToEndId: string | null;
                errorCode?: string | null;
                errorMessage?: string | null;
                id: number;
                idempotencyKey: string | null;
                payment: {
                    /** @example 150.00 */
                    amount: string;
                    /** @enum {string} */
                    currency: "BRL";
                };
                pixKey: string | null;
                remittanceInformation: string | null;
                status: "LIQUIDATED" | "ERROR";
                txId: null;
            };
            /** @enum {string} */
            type: "TRANSFER";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    jwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "EC",
                     *           "crv": "P-256",
                     *           "x": "nMGzOQ7bTkrwpVn-DsyM1fsLGO_VcCUOfqaDaeWvUHY",
                     *           "y": "G5K8bdqpd9NgZz7FYRaRyo4WVJRKSqiLPoW7XiPGQW8",
                     *           "kid": "v8t_WduYkM_JQnx6H2LuB2wGWUZlxJv0CG-pgyNrVn4",
                     *           "alg": "ES256",
                     *           "use": "sig"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        keys: {
                            alg: string;
                            crv: string;
                            kid: string;
                            kty: string;
                            use: string;
                            x: string;
                            y: string;
                        }[];
                    };
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    oauthMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "issuer": "https://pix.example.com",
                     *       "token_endpoint": "https://pix.example.com/oauth/token",
                     *       "token_endpoint_auth_methods_supported": [
                     *         "client_secret_basic",
                     *         "client_secret_post"
                     *       ],
                     *       "grant_types_supported": [
                     *         "client_credentials"
                     *       ],
                     *       "response_types_supported": [],
                     *       "scopes_supported": [
                     *         "pix:read",
                     *         "pix:write",
                     *         "balance:read",
                     *         "webhook:read",
                     *         "webhook:write"
                     *       ],
                     *       "jwks_uri": "https://pix.example.com/.well-known/jwks.json",
                     *       "service_documentation": "https://pix.example.com/docs",
                     *       "tls_client_certificate_bound_access_tokens": true,
                     *       "api_token_endpoint": "https://pix.example.com/api/auth/token",
                     *       "api_token_endpoint_auth_methods_supported": [
                     *         "client_secret_post"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uri
                         * @description the full family's token endpoint: JSON {clientId, clientSecret}, answers 201
                         */
                        api_token_endpoint: string;
                        api_token_endpoint_auth_methods_supported: string[];
                        grant_types_supported: string[];
                        /**
                         * Format: uri
                         * @description PUBLIC_URL; also the `iss` of every access token
                         */
                        issuer: string;
                        /** Format: uri */
                        jwks_uri: string;
                        /** @description empty: there is no authorization endpoint */
                        response_types_supported: string[];
                        scopes_supported: string[];
                        /** Format: uri */
                        service_documentation: string;
                        /** @description RFC 8705: tokens are bound to the client certificate */
                        tls_client_certificate_bound_access_tokens: boolean;
                        /**
                         * Format: uri
                         * @description RFC 6749 client credentials (the compatible family)
                         */
                        token_endpoint: string;
                        token_endpoint_auth_methods_supported: string[];
                    };
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getBalances: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "eventDate": "2026-11-20T15:00:05.000Z",
                     *           "balanceAmount": {
                     *             "available": 1000,
                     *             "blocked": 0,
                     *             "overdraft": 0
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            balanceAmount: {
                                /**
                                 * Format: money
                                 * @description usable now, already net of blocked
                                 */
                                available: number;
                                /**
                                 * Format: money
                                 * @description reserved for operations in processing
                                 */
                                blocked: number;
                                /**
                                 * Format: money
                                 * @description always 0 (not offered)
                                 */
                                overdraft: number;
                            };
                            /** Format: date-time */
                            eventDate: string;
                        }[];
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope balance:read",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
                /** @description a part of the name, a CPF/CNPJ (punctuation ignored), an account id, or a PIX key */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 2,
                     *           "name": "Maria da Silva",
                     *           "document": "11144477735",
                     *           "type": "INDIVIDUAL",
                     *           "pixKey": "123e4567-e12b-42d1-a456-426655440000",
                     *           "status": "ACTIVE",
                     *           "createdAt": "2026-11-20T15:00:00.000Z",
                     *           "balance": {
                     *             "available": 1520.75,
                     *             "blocked": 89.9
                     *           }
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            balance: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                available: number;
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                blocked: number;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: document */
                            document: string;
                            id: number;
                            name: string;
                            /** Format: dict-key */
                            pixKey: string;
                            /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                            status: "ACTIVE" | "SUSPENDED";
                            type: "INDIVIDUAL" | "COMPANY";
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "q must be at most 100 characters long"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Maria da Silva",
                 *       "document": "11144477735",
                 *       "type": "INDIVIDUAL"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: document
                     * @description CPF (11 digits) or CNPJ (14 characters), digits only
                     */
                    document: string;
                    name: string;
                    type?: "INDIVIDUAL" | "COMPANY";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "name": "Maria da Silva",
                     *       "document": "11144477735",
                     *       "type": "INDIVIDUAL",
                     *       "pixKey": "123e4567-e12b-42d1-a456-426655440000",
                     *       "status": "ACTIVE",
                     *       "createdAt": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: document */
                        document: string;
                        id: number;
                        name: string;
                        /** Format: dict-key */
                        pixKey: string;
                        /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                        status: "ACTIVE" | "SUSPENDED";
                        type: "INDIVIDUAL" | "COMPANY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "name is required",
                     *         "document is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "name": "Loja Exemplo Ltda",
                     *       "document": "11222333000181",
                     *       "type": "COMPANY",
                     *       "pixKey": "46065c7b-d59b-4c75-a779-72c97c593223",
                     *       "status": "ACTIVE",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "balance": {
                     *         "available": 0,
                     *         "blocked": 0
                     *       },
                     *       "limits": {
                     *         "perTransaction": 100000,
                     *         "daily": 1000000,
                     *         "nightly": 50000
                     *       },
                     *       "fees": {
                     *         "cashIn": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         },
                     *         "cashOut": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         }
                     *       },
                     *       "splitFrequency": "DAILY"
                     *     }
                     */
                    "application/json": {
                        balance: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            available: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            blocked: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: document */
                        document: string;
                        fees: {
                            cashIn: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                            cashOut: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                        };
                        id: number;
                        limits: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            daily: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            nightly: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            perTransaction: number;
                        };
                        name: string;
                        /** Format: dict-key */
                        pixKey: string;
                        splitFrequency: string;
                        /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                        status: "ACTIVE" | "SUSPENDED";
                        type: "INDIVIDUAL" | "COMPANY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Maria da Silva Comércio"
                 *     }
                 */
                "application/json": {
                    /** @description the name shown to payers and in the portal */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "name": "Maria da Silva Comércio",
                     *       "document": "11144477735",
                     *       "type": "INDIVIDUAL",
                     *       "pixKey": "123e4567-e12b-42d1-a456-426655440000",
                     *       "status": "ACTIVE",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "balance": {
                     *         "available": 1520.75,
                     *         "blocked": 89.9
                     *       },
                     *       "limits": {
                     *         "perTransaction": 5000,
                     *         "daily": 20000,
                     *         "nightly": 1000
                     *       },
                     *       "fees": {
                     *         "cashIn": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         },
                     *         "cashOut": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         }
                     *       },
                     *       "splitFrequency": "DAILY"
                     *     }
                     */
                    "application/json": {
                        balance: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            available: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            blocked: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: document */
                        document: string;
                        fees: {
                            cashIn: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                            cashOut: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                        };
                        id: number;
                        limits: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            daily: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            nightly: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            perTransaction: number;
                        };
                        name: string;
                        /** Format: dict-key */
                        pixKey: string;
                        splitFrequency: string;
                        /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                        status: "ACTIVE" | "SUSPENDED";
                        type: "INDIVIDUAL" | "COMPANY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listCertificates: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "fingerprint": "4393ba1e67ea61135bb9ea78c51ac350ef70265c8f6de17ba83300be6e52a2cd",
                     *           "subject": "CN=Maria da Silva (account 2), O=pix-account-service",
                     *           "notBefore": "2026-11-20T14:59:00.000Z",
                     *           "notAfter": "2027-11-20T15:00:00.000Z",
                     *           "revoked": false,
                     *           "revokedAt": null,
                     *           "createdAt": "2026-11-20T15:00:00.000Z"
                     *         },
                     *         {
                     *           "fingerprint": "0be9f1a2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e",
                     *           "subject": "CN=Maria da Silva (account 2), O=pix-account-service",
                     *           "notBefore": "2025-11-02T12:59:00.000Z",
                     *           "notAfter": "2026-11-02T13:00:00.000Z",
                     *           "revoked": true,
                     *           "revokedAt": "2026-11-19T09:15:00.000Z",
                     *           "createdAt": "2025-11-02T13:00:00.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 2,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description when it was registered
                             */
                            createdAt: string;
                            /** @description SHA-256 of the DER, lower-case hex */
                            fingerprint: string;
                            /** Format: date-time */
                            notAfter: string;
                            /** Format: date-time */
                            notBefore: string;
                            revoked: boolean;
                            revokedAt: string | null;
                            subject: string;
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    registerCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    pem?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "fingerprint": "4393ba1e67ea61135bb9ea78c51ac350ef70265c8f6de17ba83300be6e52a2cd",
                     *       "subject": "CN=Loja Exemplo Ltda (account 1), O=pix-account-service",
                     *       "notBefore": "2026-11-20T14:59:00.000Z",
                     *       "notAfter": "2027-11-20T15:00:00.000Z",
                     *       "certificatePem": "-----BEGIN CERTIFICATE-----\nMIIBsDCCAVWgAwIBAgIQEZoGM9hh08ZQtHmPxgSRFDAKBggqhkjOPQQDAjBGMSYw\nJAYDVQQDEx1Mb2phIEV4ZW1wbG8gTHRkYSAoYWNjb3VudCAxKTEcMBoGA1UEChMT\ncGl4LWFjY291bnQtc2VydmljZTAeFw0yNjExMjAxNDU5MDBaFw0yNzExMjAxNTAw\nMDBaMEYxJjAkBgNVBAMTHUxvamEgRXhlbXBsbyBMdGRhIChhY2NvdW50IDEpMRww\nGgYDVQQKExNwaXgtYWNjb3VudC1zZXJ2aWNlMFkwEwYHKoZIzj0CAQYIKoZIzj0D\nAQcDQgAEY6iukUQI5pYCMtzM+mr6nKkKB4k2Qb5T5Q2I9Z8ifh4/YlCpif4qKCEI\n9F1i09C/IIE5nG7NZ9JmDLSbbq9i8aMlMCMwDAYDVR0TAQH/BAIwADATBgNVHSUE\nDDAKBggrBgEFBQcDAjAKBggqhkjOPQQDAgNJADBGAiEAo7ng8ppdz7CWsuyrLae2\nOy0RtTZRs3uXg5VZ2vx5DCECIQDJSuq7+TvkmJEHXI2o+N2YDZihBCeqgOdakpPd\niu9Svg==\n-----END CERTIFICATE-----",
                     *       "privateKeyPem": "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg (shortened) \n-----END PRIVATE KEY-----\n"
                     *     }
                     */
                    "application/json": {
                        certificatePem?: string;
                        /** @description SHA-256 of the DER, hex */
                        fingerprint: string;
                        /** Format: date-time */
                        notAfter: string;
                        /** Format: date-time */
                        notBefore: string;
                        privateKeyPem?: string;
                        subject: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Certificate 3f1c2b7e8d4a4c6f9b2e1a5d7c9e0f243f1c2b7e8d4a4c6f9b2e1a5d7c9e0f24 is already registered",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listCredentials: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "clientId": "3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24",
                     *           "scopes": [
                     *             "pix:read",
                     *             "pix:write",
                     *             "balance:read",
                     *             "webhook:read",
                     *             "webhook:write"
                     *           ],
                     *           "status": "ACTIVE",
                     *           "createdAt": "2026-11-20T15:00:00.000Z",
                     *           "revokedAt": null
                     *         },
                     *         {
                     *           "clientId": "9a7b5c3d-1e2f-4a6b-8c9d-0e1f2a3b4c5d",
                     *           "scopes": [
                     *             "balance:read"
                     *           ],
                     *           "status": "REVOKED",
                     *           "createdAt": "2026-10-02T12:30:00.000Z",
                     *           "revokedAt": "2026-11-19T09:15:00.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 2,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            clientId: string;
                            /** Format: date-time */
                            createdAt: string;
                            revokedAt: string | null;
                            scopes: string[];
                            status: "ACTIVE" | "REVOKED";
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "scopes": [
                 *         "pix:read",
                 *         "pix:write",
                 *         "balance:read"
                 *       ]
                 *     }
                 */
                "application/json": {
                    clientSecret?: string;
                    scopes?: ("pix:read" | "pix:write" | "balance:read" | "webhook:read" | "webhook:write")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "clientId": "d8b2fc9d-73cc-4cd3-889f-569add9fee84",
                     *       "clientSecret": "P88RyDjYhxjG178NXjYW4FHq1dtLsJVy_Etu",
                     *       "scopes": [
                     *         "pix:read",
                     *         "pix:write",
                     *         "balance:read"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        clientId: string;
                        clientSecret: string;
                        scopes: string[];
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    revokeCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the credential's clientId */
                clientId: string;
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listAccountEvents: {
        parameters: {
            query?: {
                /** @description an event id: list the events after it (default: from the first) */
                after?: string;
                /** @description events per page, 1-1000 */
                size?: number;
                /** @description an event type, or several separated by commas: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected */
                type?: string;
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *           "type": "cash_in",
                     *           "createdAt": "2026-11-20T15:00:00.000Z",
                     *           "payload": {
                     *             "event": "CashIn",
                     *             "status": "CONFIRMED",
                     *             "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *             "originalAmount": 150,
                     *             "feeAmount": 0.5,
                     *             "finalAmount": 149.5
                     *           }
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "size": 100,
                     *         "hasMore": false,
                     *         "next": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description oldest first */
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description the event id: the `webhook-id` header every delivery of this event carries (msg_...) */
                            id: string;
                            /** @description exactly the body its webhook deliveries carry, byte for byte (see the webhooks of this document) */
                            payload: {
                                [key: string]: unknown;
                            };
                            /**
                             * @description one of the 7 event names
                             * @enum {string}
                             */
                            type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                        }[];
                        metadata: {
                            /** @description more events follow: ask again with after = next */
                            hasMore: boolean;
                            /** @description the cursor to pass as `after` for the following events (the last id listed, or the `after` given when none were) */
                            next: string | null;
                            /** @description the page size asked for */
                            size: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getAccountEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id (msg_...) */
                eventId: string;
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *       "type": "cash_in",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "payload": {
                     *         "event": "CashIn",
                     *         "status": "CONFIRMED",
                     *         "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *         "originalAmount": 150,
                     *         "feeAmount": 0.5,
                     *         "finalAmount": 149.5
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description the event id: the `webhook-id` header every delivery of this event carries (msg_...) */
                        id: string;
                        /** @description exactly the body its webhook deliveries carry, byte for byte (see the webhooks of this document) */
                        payload: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description one of the 7 event names
                         * @enum {string}
                         */
                        type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    streamAccountEvents: {
        parameters: {
            query?: {
                /** @description an event type, or several separated by commas: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected */
                type?: string;
            };
            header?: {
                /** @description resume after this event id (the last `id:` received): no event lost or repeated */
                "last-event-id"?: string;
            };
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: each event as `id: <event id>`, `event: <type>`, `data: <payload JSON>`; a `:` comment at least every 15 s. Without Last-Event-ID the stream starts with the events created after it opened. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    updateFees: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cashIn": {
                 *         "fixed": 0,
                 *         "percent": 0.99
                 *       },
                 *       "cashOut": {
                 *         "fixed": 0.5,
                 *         "percent": 0
                 *       }
                 *     }
                 */
                "application/json": {
                    cashIn?: {
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        fixed: number;
                        /**
                         * Format: money
                         * @description percent, 10 means 10%
                         */
                        percent: number;
                    };
                    cashOut?: {
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        fixed: number;
                        /**
                         * Format: money
                         * @description percent, 10 means 10%
                         */
                        percent: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "cashIn": {
                     *         "fixed": 0,
                     *         "percent": 0.99
                     *       },
                     *       "cashOut": {
                     *         "fixed": 0.5,
                     *         "percent": 0
                     *       }
                     *     }
                     */
                    "application/json": {
                        cashIn: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            fixed: number;
                            /**
                             * Format: money
                             * @description percent, 10 means 10%
                             */
                            percent: number;
                        };
                        cashOut: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            fixed: number;
                            /**
                             * Format: money
                             * @description percent, 10 means 10%
                             */
                            percent: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    updateLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "perTransaction": 5000,
                 *       "daily": 20000,
                 *       "nightly": 1000
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: money
                     * @description BRL, at most 2 decimals (format money)
                     */
                    daily?: number;
                    /**
                     * Format: money
                     * @description BRL, at most 2 decimals (format money)
                     */
                    nightly?: number;
                    /**
                     * Format: money
                     * @description BRL, at most 2 decimals (format money)
                     */
                    perTransaction?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "perTransaction": 5000,
                     *       "daily": 20000,
                     *       "nightly": 1000
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        daily: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        nightly: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        perTransaction: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 4,
                     *           "email": "ana@padaria.example",
                     *           "status": "ACTIVE",
                     *           "createdAt": "2026-11-02T13:00:00.000Z"
                     *         },
                     *         {
                     *           "id": 9,
                     *           "email": "caixa@padaria.example",
                     *           "status": "INVITED",
                     *           "createdAt": "2026-11-20T15:00:00.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 2,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            id: number;
                            /** @description INVITED until the invitation link sets a password */
                            status: "INVITED" | "ACTIVE";
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "financeiro@lojaexemplo.com.br"
                 *     }
                 */
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "email": "financeiro@lojaexemplo.com.br",
                     *       "invitationUrl": "https://pix.example.com/portal/invitations/G2Rd5oXIcO2uuq26zeLb_rzezfIZdz9s1N_gNL_U_zM"
                     *     }
                     */
                    "application/json": {
                        email: string;
                        id: number;
                        invitationUrl: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "email is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A portal user with email owner@example.com already exists",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
                /** @description numeric id */
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    reactivateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "name": "Maria da Silva",
                     *       "document": "11144477735",
                     *       "type": "INDIVIDUAL",
                     *       "pixKey": "123e4567-e12b-42d1-a456-426655440000",
                     *       "status": "ACTIVE",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "balance": {
                     *         "available": 1520.75,
                     *         "blocked": 89.9
                     *       },
                     *       "limits": {
                     *         "perTransaction": 5000,
                     *         "daily": 20000,
                     *         "nightly": 1000
                     *       },
                     *       "fees": {
                     *         "cashIn": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         },
                     *         "cashOut": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         }
                     *       },
                     *       "splitFrequency": "DAILY"
                     *     }
                     */
                    "application/json": {
                        balance: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            available: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            blocked: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: document */
                        document: string;
                        fees: {
                            cashIn: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                            cashOut: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                        };
                        id: number;
                        limits: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            daily: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            nightly: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            perTransaction: number;
                        };
                        name: string;
                        /** Format: dict-key */
                        pixKey: string;
                        splitFrequency: string;
                        /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                        status: "ACTIVE" | "SUSPENDED";
                        type: "INDIVIDUAL" | "COMPANY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    updateSplitFrequency: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "frequency": "DAILY"
                 *     }
                 */
                "application/json": {
                    /** @description when non-immediate split shares are paid: at once, at the next full hour, or daily at 00:00 America/Sao_Paulo */
                    frequency: "IMMEDIATE" | "HOURLY" | "DAILY";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "frequency": "DAILY"
                     *     }
                     */
                    "application/json": {
                        /** @description when non-immediate split shares are paid: at once, at the next full hour, or daily at 00:00 America/Sao_Paulo */
                        frequency: "IMMEDIATE" | "HOURLY" | "DAILY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "frequency is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    suspendAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "name": "Maria da Silva",
                     *       "document": "11144477735",
                     *       "type": "INDIVIDUAL",
                     *       "pixKey": "123e4567-e12b-42d1-a456-426655440000",
                     *       "status": "SUSPENDED",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "balance": {
                     *         "available": 1520.75,
                     *         "blocked": 89.9
                     *       },
                     *       "limits": {
                     *         "perTransaction": 5000,
                     *         "daily": 20000,
                     *         "nightly": 1000
                     *       },
                     *       "fees": {
                     *         "cashIn": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         },
                     *         "cashOut": {
                     *           "fixed": 0,
                     *           "percent": 0
                     *         }
                     *       },
                     *       "splitFrequency": "DAILY"
                     *     }
                     */
                    "application/json": {
                        balance: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            available: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            blocked: number;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: document */
                        document: string;
                        fees: {
                            cashIn: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                            cashOut: {
                                /**
                                 * Format: money
                                 * @description BRL, at most 2 decimals (format money)
                                 */
                                fixed: number;
                                /**
                                 * Format: money
                                 * @description percent, 10 means 10%
                                 */
                                percent: number;
                            };
                        };
                        id: number;
                        limits: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            daily: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            nightly: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            perTransaction: number;
                        };
                        name: string;
                        /** Format: dict-key */
                        pixKey: string;
                        splitFrequency: string;
                        /** @description SUSPENDED: an operator suspended it; its money-moving calls answer 403 ACCOUNT_SUSPENDED, reads and incoming PIX continue */
                        status: "ACTIVE" | "SUSPENDED";
                        type: "INDIVIDUAL" | "COMPANY";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description one of the 7 event names */
                event?: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
                /** @description delivered (2xx) or failed */
                status?: "delivered" | "failed";
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 318,
                     *           "kind": "delivery",
                     *           "event": "cash_in",
                     *           "eventId": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *           "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *           "webhookId": 12,
                     *           "url": "https://example.com/pix/webhooks",
                     *           "status": "failed",
                     *           "statusCode": 503,
                     *           "durationMs": 184,
                     *           "attempt": 2,
                     *           "nextAttemptAt": "2026-11-20T15:30:02.000Z",
                     *           "error": null,
                     *           "responseExcerpt": "Service Unavailable",
                     *           "sentAt": "2026-11-20T15:00:00.000Z"
                     *         },
                     *         {
                     *           "id": 301,
                     *           "kind": "delivery",
                     *           "event": "cash_in",
                     *           "eventId": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *           "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *           "webhookId": 12,
                     *           "url": "https://example.com/pix/webhooks",
                     *           "status": "failed",
                     *           "statusCode": null,
                     *           "durationMs": 10000,
                     *           "attempt": 1,
                     *           "nextAttemptAt": null,
                     *           "error": "timed out after 10000 ms",
                     *           "responseExcerpt": null,
                     *           "sentAt": "2026-11-20T14:59:52.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 2,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description the number of this attempt of its delivery (1, 2, ...); null for resends and tests */
                            attempt: number | null;
                            durationMs: number;
                            /** @description why no answer came (timeout, refused connection or destination) */
                            error: string | null;
                            /**
                             * @description one of the 7 event names
                             * @enum {string}
                             */
                            event: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                            /** @description the webhook-id header of the delivered event (null for a test event) */
                            eventId: string | null;
                            /** @description the attempt log id (webhookLogId) */
                            id: number;
                            /** @description delivery: the relay (with retries); resend: POST /api/resend-webhook or the portal; test: a test event */
                            kind: "delivery" | "resend" | "test";
                            /** @description when the delivery is tried again after this attempt (null when none will be) */
                            nextAttemptAt: string | null;
                            /** @description the first 1 KiB of the answer */
                            responseExcerpt: string | null;
                            /** Format: date-time */
                            sentAt: string;
                            /**
                             * @description delivered: a 2xx answer; failed: any other answer, or none
                             * @enum {string}
                             */
                            status: "delivered" | "failed";
                            /** @description the receiver's HTTP status; null when no answer came */
                            statusCode: number | null;
                            /**
                             * Format: uuid
                             * @description the transaction the event is about, when there is one
                             */
                            transactionId: string | null;
                            url: string;
                            /** @description the registration the attempt went to (null for a one-off resend URL) */
                            webhookId: number | null;
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    replayAccountDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-20T00:00:00Z",
                 *       "status": "failed"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-or-date-time
                     * @description replay the deliveries of events created at or after this instant (a date alone: 00:00 UTC)
                     */
                    since: string;
                    /** @description failed: the deliveries whose last attempt failed for good; all: every finished delivery */
                    status: "failed" | "all";
                    /**
                     * @description one of the 7 event names
                     * @enum {string}
                     */
                    type?: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "queued": 3
                     *     }
                     */
                    "application/json": {
                        /** @description deliveries queued again (one per event and active URL) */
                        queued: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "since is required",
                     *         "status is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_Bbjow9z3kxNiGlJzNn+nlJ6avbVaAxubPHTLiwhEE+U="
                     *     }
                     */
                    "application/json": {
                        secret: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwS4ZG5n1Vw8E=",
                     *       "previousSecretValidUntil": "2026-11-21T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description until when the previous secret still signs (WEBHOOK_SECRET_OVERLAP_S after now); null when the account had none */
                        previousSecretValidUntil: string | null;
                        /** @description the new whsec_ secret */
                        secret: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listAccountWebhooks: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 1,
                     *           "type": "cash_in",
                     *           "url": "https://example.com/pix/webhooks",
                     *           "headers": {
                     *             "x-api-key": "my-receiver-key"
                     *           },
                     *           "isActive": true,
                     *           "version": 1,
                     *           "createdAt": "2026-11-20T15:00:00.000Z",
                     *           "updatedAt": "2026-11-20T15:00:00.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            createdAt: string;
                            headers: {
                                [key: string]: string;
                            };
                            id: number;
                            isActive: boolean;
                            /**
                             * @description one of the 7 event names
                             * @enum {string}
                             */
                            type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                            updatedAt: string;
                            url: string;
                            /** @description increments each time the URL is registered again */
                            version: number;
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    registerAccountWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "eventType": "cash_in",
                 *       "url": "https://example.com/pix/webhooks",
                 *       "headers": [
                 *         {
                 *           "key": "x-api-key",
                 *           "value": "my-receiver-key"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /**
                     * @description one of the 7 event names
                     * @enum {string}
                     */
                    eventType: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                    /** @description custom headers sent with every delivery; blocked: host, content-length, connection, transfer-encoding, content-type, user-agent, webhook-* */
                    headers?: {
                        key: string;
                        value: string;
                    }[];
                    /** @description HTTPS (the sandbox also accepts http://localhost and http://127.0.0.1) */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "type": "cash_in",
                     *       "url": "https://example.com/pix/webhooks",
                     *       "headers": {
                     *         "x-api-key": "my-receiver-key"
                     *       },
                     *       "isActive": true,
                     *       "version": 1,
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "updatedAt": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        createdAt: string;
                        headers: {
                            [key: string]: string;
                        };
                        id: number;
                        isActive: boolean;
                        /**
                         * @description one of the 7 event names
                         * @enum {string}
                         */
                        type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                        updatedAt: string;
                        url: string;
                        /** @description increments each time the URL is registered again */
                        version: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "eventType is required",
                     *         "url is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "cash_in"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description one of the 7 event names
                     * @enum {string}
                     */
                    event: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event": "cash_in",
                     *       "eventId": "msg_test_7c4e2a1b9d8f4e6a8b2c0d1e3f5a7b9c",
                     *       "attempts": [
                     *         {
                     *           "webhookLogId": 412,
                     *           "webhookId": 12,
                     *           "url": "https://example.com/pix/webhooks",
                     *           "statusCode": 200,
                     *           "durationMs": 87,
                     *           "delivered": true,
                     *           "error": null,
                     *           "sentAt": "2026-11-20T15:00:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        attempts: {
                            /** @description the receiver answered 2xx */
                            delivered: boolean;
                            durationMs: number;
                            error: string | null;
                            /** Format: date-time */
                            sentAt: string;
                            /** @description null when no HTTP answer came */
                            statusCode: number | null;
                            url: string;
                            webhookId: number;
                            webhookLogId: number;
                        }[];
                        /**
                         * @description one of the 7 event names
                         * @enum {string}
                         */
                        event: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                        /** @description the webhook-id header sent */
                        eventId: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "event is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    revokeCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fingerprint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "fingerprint has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No active certificate with fingerprint 3f1c2b7e8d4a4c6f9b2e1a5d7c9e0f243f1c2b7e8d4a4c6f9b2e1a5d7c9e0f24",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    ledgerCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "checkedAt": "2026-11-20T16:00:35.000Z",
                     *       "postings": {
                     *         "count": 26,
                     *         "total": 0
                     *       },
                     *       "unbalancedJournals": {
                     *         "count": 0,
                     *         "items": []
                     *       },
                     *       "drift": {
                     *         "count": 0,
                     *         "items": []
                     *       },
                     *       "negativeBalances": {
                     *         "count": 0,
                     *         "items": []
                     *       },
                     *       "systemAccounts": [
                     *         {
                     *           "code": "fee_revenue",
                     *           "balance": 0
                     *         },
                     *         {
                     *           "code": "med_clearing",
                     *           "balance": 0
                     *         },
                     *         {
                     *           "code": "network:sandbox",
                     *           "balance": 160
                     *         },
                     *         {
                     *           "code": "network:unconfigured",
                     *           "balance": 0
                     *         },
                     *         {
                     *           "code": "onus_clearing",
                     *           "balance": 0
                     *         },
                     *         {
                     *           "code": "suspense",
                     *           "balance": 0
                     *         },
                     *         {
                     *           "code": "world",
                     *           "balance": -1000
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        checkedAt: string;
                        drift: {
                            /** @description How many there are (items lists at most 100) */
                            count: number;
                            items: {
                                accountId: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                available: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                blocked: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                postedAvailable: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                postedBlocked: number;
                            }[];
                        };
                        negativeBalances: {
                            /** @description How many there are (items lists at most 100) */
                            count: number;
                            items: {
                                accountId: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                available: number;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                blocked: number;
                            }[];
                        };
                        /** @description True when every invariant holds */
                        ok: boolean;
                        postings: {
                            count: number;
                            /**
                             * Format: money
                             * @description BRL, 2 decimals
                             */
                            total: number;
                        };
                        systemAccounts: {
                            /**
                             * Format: money
                             * @description BRL, 2 decimals
                             */
                            balance: number;
                            code: string;
                        }[];
                        unbalancedJournals: {
                            /** @description How many there are (items lists at most 100) */
                            count: number;
                            items: {
                                journalId: string;
                                /**
                                 * Format: money
                                 * @description BRL, 2 decimals
                                 */
                                sum: number;
                            }[];
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    runStatementCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "checkedAt": "2026-11-20T15:00:00.000Z",
                     *       "providerBalance": 15230.4,
                     *       "ourBalance": 15195.4,
                     *       "difference": 35,
                     *       "payoutsAwaiting": 1,
                     *       "error": null
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        checkedAt: string;
                        difference: number | null;
                        error: string | null;
                        id: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        ourBalance: number;
                        payoutsAwaiting: number;
                        providerBalance: number | null;
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No provider is configured (PIX_NETWORK=provider)",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    networkStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "adapter": "provider",
                     *       "ledgerAccount": "network:provider",
                     *       "payoutsAwaitingOutcome": {
                     *         "count": 2,
                     *         "oldestCreatedAt": "2026-11-20T14:58:12.000Z"
                     *       },
                     *       "suspense": {
                     *         "count": 1,
                     *         "total": 35
                     *       },
                     *       "provider": {
                     *         "url": "https://api.provider.example",
                     *         "circuit": {
                     *           "state": "closed",
                     *           "consecutiveFailures": 0,
                     *           "openedAt": null,
                     *           "retryAt": null,
                     *           "lastFailure": null
                     *         },
                     *         "token": {
                     *           "expiresAt": "2026-11-20T15:25:00.000Z",
                     *           "lastRenewedAt": "2026-11-20T14:55:00.000Z",
                     *           "lastError": null
                     *         },
                     *         "lastNotice": {
                     *           "webhookId": "msg_2p4Xk7Qw9Zr1",
                     *           "event": "cash_in",
                     *           "receivedAt": "2026-11-20T14:59:40.000Z",
                     *           "outcome": "applied"
                     *         },
                     *         "webhooks": {
                     *           "state": "registered",
                     *           "url": "https://pix.example.com/network/provider/webhooks",
                     *           "events": [
                     *             "cash_in",
                     *             "cash_out",
                     *             "refund_in",
                     *             "refund_out"
                     *           ],
                     *           "at": "2026-11-20T08:00:01.000Z"
                     *         },
                     *         "lastReconciliation": {
                     *           "at": "2026-11-20T15:00:00.000Z",
                     *           "kind": "payments",
                     *           "asked": 3,
                     *           "finished": 1,
                     *           "finishedTotal": 42
                     *         },
                     *         "chargesAwaitingOutcome": 0,
                     *         "lastStatementCheck": {
                     *           "checkedAt": "2026-11-20T06:00:00.000Z",
                     *           "providerBalance": 15230.4,
                     *           "ourBalance": 15230.4,
                     *           "difference": 0,
                     *           "payoutsAwaiting": 0,
                     *           "error": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        adapter: "sandbox" | "provider";
                        ledgerAccount: string;
                        payoutsAwaitingOutcome: {
                            count: number;
                            oldestCreatedAt: string | null;
                        };
                        provider: {
                            chargesAwaitingOutcome: number;
                            circuit: {
                                consecutiveFailures: number;
                                lastFailure: string | null;
                                openedAt: string | null;
                                retryAt: string | null;
                                state: "closed" | "open" | "half_open";
                            };
                            lastNotice: {
                                event: string;
                                outcome: string | null;
                                /** Format: date-time */
                                receivedAt: string;
                                webhookId: string;
                            } | null;
                            lastReconciliation: {
                                [key: string]: unknown;
                            } | null;
                            lastStatementCheck: {
                                /** Format: date-time */
                                checkedAt: string;
                                /** @description providerBalance - ourBalance; null when the provider could not be asked */
                                difference: number | null;
                                error: string | null;
                                /**
                                 * Format: money
                                 * @description what our books say the pooled account holds (BRL)
                                 */
                                ourBalance: number;
                                payoutsAwaiting: number;
                                /** @description the pooled account's gross balance at the provider (GET /api/balance) */
                                providerBalance: number | null;
                            } | null;
                            token: {
                                expiresAt: string | null;
                                lastError: string | null;
                                lastRenewedAt: string | null;
                            };
                            url: string;
                            webhooks: {
                                [key: string]: unknown;
                            } | null;
                        } | null;
                        suspense: {
                            count: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            total: number;
                        };
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listSuspense: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 (default 20) */
                pageSize?: number;
                /** @description the former name of pageSize (kept) */
                size?: number;
                /** @description default: every item */
                status?: "OPEN" | "ASSIGNED";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 7,
                     *           "status": "OPEN",
                     *           "amount": 35,
                     *           "endToEndId": "E18236120202611201459s0a1b2c3d4e",
                     *           "payer": {
                     *             "name": "João Souza",
                     *             "document": "***.982.247-**",
                     *             "ispb": "18236120"
                     *           },
                     *           "reason": "no_charge",
                     *           "chargeReference": null,
                     *           "providerTransactionId": "8a3f2c1e-5b7d-4e9a-b6c4-1d2e3f4a5b6c",
                     *           "receivedAt": "2026-11-20T14:59:40.000Z",
                     *           "assignedAccountId": null,
                     *           "assignedTransactionId": null,
                     *           "assignedAt": null
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       },
                     *       "total": 1,
                     *       "page": 1,
                     *       "size": 20
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: money
                             * @description BRL
                             */
                            amount: number;
                            assignedAccountId: number | null;
                            assignedAt: string | null;
                            assignedTransactionId: string | null;
                            chargeReference: string | null;
                            endToEndId: string;
                            id: number;
                            payer: {
                                document: string | null;
                                ispb: string;
                                name: string;
                            };
                            providerTransactionId: string | null;
                            /** @description no_charge, charge_not_payable, charge_amount_mismatch, charge_never_stored */
                            reason: string;
                            /** Format: date-time */
                            receivedAt: string;
                            status: "OPEN" | "ASSIGNED";
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                        page: number;
                        size: number;
                        total: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "status must be one of: OPEN"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    assignSuspense: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "accountId": 2
                 *     }
                 */
                "application/json": {
                    /** @description the account to credit */
                    accountId: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "status": "ASSIGNED",
                     *       "amount": 35,
                     *       "endToEndId": "E18236120202611201459s0a1b2c3d4e",
                     *       "payer": {
                     *         "name": "João Souza",
                     *         "document": "***.982.247-**",
                     *         "ispb": "18236120"
                     *       },
                     *       "reason": "no_charge",
                     *       "chargeReference": null,
                     *       "providerTransactionId": "8a3f2c1e-5b7d-4e9a-b6c4-1d2e3f4a5b6c",
                     *       "receivedAt": "2026-11-20T14:59:40.000Z",
                     *       "assignedAccountId": 2,
                     *       "assignedTransactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "assignedAt": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: money
                         * @description BRL
                         */
                        amount: number;
                        assignedAccountId: number | null;
                        assignedAt: string | null;
                        assignedTransactionId: string | null;
                        chargeReference: string | null;
                        endToEndId: string;
                        id: number;
                        payer: {
                            document: string | null;
                            ispb: string;
                            name: string;
                        };
                        providerTransactionId: string | null;
                        /** @description no_charge, charge_not_payable, charge_amount_mismatch, charge_never_stored */
                        reason: string;
                        /** Format: date-time */
                        receivedAt: string;
                        status: "OPEN" | "ASSIGNED";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "accountId is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Suspense item 7 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Suspense item 7 was already assigned to account 2",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listOperators: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 1,
                     *           "email": "ops@example.com",
                     *           "createdAt": "2026-10-01T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            id: number;
                        }[];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "page must be an integer"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createOperator: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ops@example.com",
                 *       "password": "correct horse battery staple"
                 *     }
                 */
                "application/json": {
                    email: string;
                    /** @description at least 12 characters */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "email": "ops@example.com"
                     *     }
                     */
                    "application/json": {
                        email: string;
                        id: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "email is required",
                     *         "password is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A portal user with email ops@example.com already exists",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    removeOperator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    rotateSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "kid": "nq8KzY1p3fW0b6cR2xT9vJ4mL7hG5dA1sE3uQ8wZ0yI",
                     *       "previousKid": "AZqrGr7hY1TGwt-VFS504IQYPwc7lkkakj3z1aBcDeF",
                     *       "previousKeyValidUntil": "2026-11-20T15:30:30.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @description the key that signs now */
                        kid: string;
                        /** @description until when the previous key verifies and is published: a token lifetime plus 30 s from now */
                        previousKeyValidUntil: string | null;
                        previousKid: string | null;
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <ADMIN_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Webhook registration not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "error": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description percent-encoded (RFC 3986) PEM client certificate */
                "x-ssl-client-cert"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "clientId": "3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24",
                 *       "clientSecret": "cs_5Jk9Qw2Zr7Tx"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description OAuth 2.0 client id (UUID v4)
                     */
                    clientId: string;
                    clientSecret: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjMwMDAifQ.c2ln",
                     *       "token_type": "Bearer",
                     *       "expires_in": 1800
                     *     }
                     */
                    "application/json": {
                        /** @description JWT (ES256), bound to the client certificate */
                        access_token: string;
                        /** @description seconds; always 1800 */
                        expires_in: number;
                        /** @enum {string} */
                        token_type: "Bearer";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "PUB_CERT_HEADER_MISSING",
                     *       "message": "The X-SSL-Client-Cert header is missing.",
                     *       "userMessage": "Certificado do cliente não enviado. Envie o certificado no cabeçalho X-SSL-Client-Cert.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request",
                     *       "errorCode": "PUB_CERT_HEADER_MISSING"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "PUB_INVALID_CREDENTIALS",
                     *       "message": "Invalid client credentials.",
                     *       "userMessage": "Credenciais inválidas. Verifique clientId e clientSecret.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized",
                     *       "errorCode": "PUB_INVALID_CREDENTIALS"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT",
                     *       "message": "The client certificate is not linked to the account that owns these credentials.",
                     *       "userMessage": "O certificado do cliente não está vinculado à conta destas credenciais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "errorCode": "PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Too many failed authentication attempts for this client or from this address; retry after 42 seconds.",
                     *       "userMessage": "Muitas requisições. Aguarde e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Too Many Requests",
                     *       "details": {
                     *         "retryAfterSeconds": 42
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description The payment network answered unexpectedly */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 502,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "PUB_AUTH_UPSTREAM_ERROR",
                     *       "message": "The authentication service returned an unrecognized error.",
                     *       "userMessage": "Falha no serviço de autenticação. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Gateway",
                     *       "errorCode": "PUB_AUTH_UPSTREAM_ERROR"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/auth/token",
                     *       "method": "POST",
                     *       "code": "PUB_AUTH_UPSTREAM_UNAVAILABLE",
                     *       "message": "The authentication service is unreachable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço de autenticação indisponível no momento. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "errorCode": "PUB_AUTH_UPSTREAM_UNAVAILABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "grossBalance": 1000,
                     *       "blockedBalance": 0,
                     *       "netBalance": 1000,
                     *       "consultedAt": "2026-11-20T15:00:05.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: money
                         * @description reserved for operations in processing, BRL
                         */
                        blockedBalance: number;
                        /** Format: date-time */
                        consultedAt: string;
                        /**
                         * Format: money
                         * @description available + blocked, BRL
                         */
                        grossBalance: number;
                        /**
                         * Format: money
                         * @description usable now, BRL (already net of blocked)
                         */
                        netBalance: number;
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/balance",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/balance",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope balance:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "balance:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/balance",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/balance",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description an event id: list the events after it (default: from the first) */
                after?: string;
                /** @description events per page, 1-1000 */
                size?: number;
                /** @description an event type, or several separated by commas: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *           "type": "cash_in",
                     *           "createdAt": "2026-11-20T15:00:00.000Z",
                     *           "payload": {
                     *             "event": "CashIn",
                     *             "status": "CONFIRMED",
                     *             "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *             "originalAmount": 150,
                     *             "feeAmount": 0.5,
                     *             "finalAmount": 149.5
                     *           }
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "size": 100,
                     *         "hasMore": false,
                     *         "next": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description oldest first */
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** @description the event id: the `webhook-id` header every delivery of this event carries (msg_...) */
                            id: string;
                            /** @description exactly the body its webhook deliveries carry, byte for byte (see the webhooks of this document) */
                            payload: {
                                [key: string]: unknown;
                            };
                            /**
                             * @description one of the 7 event names
                             * @enum {string}
                             */
                            type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                        }[];
                        metadata: {
                            /** @description more events follow: ask again with after = next */
                            hasMore: boolean;
                            /** @description the cursor to pass as `after` for the following events (the last id listed, or the `after` given when none were) */
                            next: string | null;
                            /** @description the page size asked for */
                            size: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "after must be at most 100 characters long"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id (msg_...) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60",
                     *       "type": "cash_in",
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "payload": {
                     *         "event": "CashIn",
                     *         "status": "CONFIRMED",
                     *         "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *         "originalAmount": 150,
                     *         "feeAmount": 0.5,
                     *         "finalAmount": 149.5
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description the event id: the `webhook-id` header every delivery of this event carries (msg_...) */
                        id: string;
                        /** @description exactly the body its webhook deliveries carry, byte for byte (see the webhooks of this document) */
                        payload: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description one of the 7 event names
                         * @enum {string}
                         */
                        type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "id must be at most 100 characters long"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Not found.",
                     *       "userMessage": "O recurso solicitado não foi encontrado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description an event type, or several separated by commas: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected */
                type?: string;
            };
            header?: {
                /** @description resume after this event id (the last `id:` received): no event lost or repeated */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: each event as `id: <event id>`, `event: <type>`, `data: <payload JSON>`; a `:` comment at least every 15 s. Without Last-Event-ID the stream starts with the events created after it opened. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "type must be at most 200 characters long"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "userMessage": "Muitas requisições. Aguarde e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Too Many Requests",
                     *       "details": {
                     *         "retryAfterSeconds": 42
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/events/stream",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listMed: {
        parameters: {
            query?: {
                endDate?: string;
                isReconciled?: boolean;
                page?: number;
                pageSize?: number;
                startDate?: string;
                status?: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": 1,
                     *           "endToEnd": "E60746948202611201500OTlFSd4o368",
                     *           "status": "ANALYZED",
                     *           "reason": "REFUND_REQUEST",
                     *           "cause": "SCAM",
                     *           "description": null,
                     *           "analysisResult": "REJECTED",
                     *           "analysisDetails": "Pagamento legítimo: produto entregue",
                     *           "requestingBank": {
                     *             "ispb": "60746948",
                     *             "name": "Banco Bradesco S.A."
                     *           },
                     *           "contestedBank": {
                     *             "ispb": "99999999",
                     *             "name": "PIX Account Sandbox"
                     *           },
                     *           "transaction": {
                     *             "amount": 150,
                     *             "type": "PIX",
                     *             "transactionType": "CASH_IN",
                     *             "name": "Maria da Silva",
                     *             "document": "***.444.777-**",
                     *             "dateTime": "2026-11-20T15:00:05.000Z"
                     *           },
                     *           "isReconciled": true,
                     *           "originalTransactionId": 2,
                     *           "createdAt": "2026-11-20T15:00:35.000Z",
                     *           "updatedAt": "2026-11-20T15:00:35.000Z"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 1,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Med"][];
                        metadata: {
                            page: number;
                            pageSize: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "status must be one of: OPEN"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "userMessage": "Muitas requisições. Aguarde e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Too Many Requests",
                     *       "details": {
                     *         "retryAfterSeconds": 42
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/med",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createCashIn: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction": {
                 *         "value": 150,
                 *         "description": "Pedido 1042",
                 *         "externalId": "order-1042",
                 *         "expirationTime": 3600
                 *       },
                 *       "payer": {
                 *         "fullName": "Maria da Silva",
                 *         "document": "11144477735"
                 *       }
                 *     }
                 */
                "application/json": {
                    additionalInfo?: {
                        [key: string]: string;
                    };
                    payer: {
                        /**
                         * Format: document
                         * @description CPF (11 digits) or CNPJ (14 characters), digits only
                         */
                        document: string;
                        fullName: string;
                    };
                    splits?: {
                        /**
                         * Format: document
                         * @description CPF (11 digits) or CNPJ (14 characters), digits only
                         */
                        document: string;
                        /** @default false */
                        immediate?: boolean;
                        name: string;
                        pixKey: string;
                        pixKeyType: "EMAIL" | "PHONE" | "CPF" | "CNPJ" | "RANDOM";
                        type: "FIXED" | "PERCENTAGE";
                        /** @description FIXED: BRL with at most 2 decimals; PERCENTAGE: percent of the gross amount (10 = 10%), at most 100, with at most 4 decimals */
                        value: number;
                    }[];
                    transaction: {
                        description: string;
                        /** @description seconds, default 86400 */
                        expirationTime?: number;
                        externalId: string;
                        generateQrCode?: boolean;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        value: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "correlationId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "externalId": "order-1042",
                     *       "status": "PENDING",
                     *       "pixCode": "00020101021226740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63042895",
                     *       "generateTime": "2026-11-20T15:00:00.000Z",
                     *       "expirationDate": "2026-11-20T16:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        correlationId: string;
                        /** Format: date-time */
                        expirationDate: string;
                        externalId: string;
                        /** Format: date-time */
                        generateTime: string;
                        pixCode: string;
                        /** @description PNG data URL (data:image/png;base64,...) */
                        qrCodeImage?: string;
                        /** @enum {string} */
                        status: "PENDING";
                        /** Format: uuid */
                        transactionId: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "transaction is required",
                     *         "payer is required"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "PROVIDER_UNAVAILABLE",
                     *       "message": "The payment provider cannot be reached. Nothing was stored and no money was held; retry.",
                     *       "userMessage": "O provedor de pagamentos está indisponível no momento. Tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error",
                     *       "errorCode": "PROVIDER_UNAVAILABLE",
                     *       "details": {
                     *         "provider": "sandbox",
                     *         "scenario": "error:provider-unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-in",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createCashOut: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "value": 89.9,
                 *       "externalId": "payout-2201",
                 *       "description": "Reembolso pedido 1042",
                 *       "details": {
                 *         "key": "maria.silva@example.com",
                 *         "keyType": "EMAIL",
                 *         "name": "Maria da Silva",
                 *         "document": "11144477735"
                 *       }
                 *     }
                 */
                "application/json": {
                    description?: string;
                    details: {
                        /**
                         * Format: document
                         * @description CPF (11 digits) or CNPJ (14) of the key holder
                         */
                        document: string;
                        key: string;
                        keyType: "DOCUMENT" | "EMAIL" | "PHONE" | "RANDOM";
                        name: string;
                    };
                    /** @description unique per account; acts as an idempotency key */
                    externalId: string;
                    /**
                     * Format: money
                     * @description BRL, at most 2 decimals
                     */
                    value: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "externalId": "payout-2201",
                     *       "status": "PENDING",
                     *       "generateTime": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        externalId: string;
                        /** Format: date-time */
                        generateTime: string;
                        status: "PENDING" | "CONFIRMED" | "ERROR";
                        /** Format: uuid */
                        transactionId: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "value is required",
                     *         "externalId is required",
                     *         "details is required"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "PROVIDER_UNAVAILABLE",
                     *       "message": "The payment provider cannot be reached. Nothing was stored and no money was held; retry.",
                     *       "userMessage": "O provedor de pagamentos está indisponível no momento. Tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error",
                     *       "errorCode": "PROVIDER_UNAVAILABLE",
                     *       "details": {
                     *         "provider": "sandbox",
                     *         "scenario": "error:provider-unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createCashOutQrCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "value": 10,
                 *       "qrCode": "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6",
                 *       "externalId": "qr-3301",
                 *       "description": "Pedido 123"
                 *     }
                 */
                "application/json": {
                    description?: string;
                    /**
                     * Format: document
                     * @description CPF (11 digits) or CNPJ (14 characters), digits only
                     */
                    document?: string;
                    externalId: string;
                    name?: string;
                    /** @description EMV PIX copy-and-paste string */
                    qrCode: string;
                    /**
                     * Format: money
                     * @description BRL; must equal the amount embedded in the QR code when present
                     */
                    value: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "externalId": "qr-3301",
                     *       "status": "PENDING",
                     *       "generateTime": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        externalId: string;
                        /** Format: date-time */
                        generateTime: string;
                        status: "PENDING" | "CONFIRMED" | "ERROR";
                        /** Format: uuid */
                        transactionId: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "value is required",
                     *         "qrCode is required",
                     *         "externalId is required"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "CHARGE_NOT_PAYABLE",
                     *       "message": "The charge cannot be paid: it was already paid",
                     *       "userMessage": "Esta cobrança não pode mais ser paga.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Conflict",
                     *       "errorCode": "CHARGE_NOT_PAYABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "PROVIDER_UNAVAILABLE",
                     *       "message": "The payment provider cannot be reached. Nothing was stored and no money was held; retry.",
                     *       "userMessage": "O provedor de pagamentos está indisponível no momento. Tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error",
                     *       "errorCode": "PROVIDER_UNAVAILABLE",
                     *       "details": {
                     *         "provider": "sandbox",
                     *         "scenario": "error:provider-unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/cash-out-qrcode",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    createRefundIn: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path: {
                /** @description transactionId or numeric id of the received PIX */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refundValue": 50,
                 *       "reason": "Produto devolvido",
                 *       "externalId": "dev10421"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: refund-external-id
                     * @description Unique per account; 1 to 35 printable characters, without spaces at either end (as the provider's API takes it). When it is only letters and digits it is also the refund's devolução id on the compatible family (`GET /pix/{e2eid}/devolucao/{externalId}`); otherwise the refund is reachable there by the service's own id, its `transactionId` without hyphens.
                     */
                    externalId?: string;
                    reason?: string;
                    /**
                     * Format: money
                     * @description BRL; not above what is still refundable of the original
                     */
                    refundValue: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "transactionId": "a78ca9ac-4353-4013-8721-2a57f3b61df9",
                     *       "externalId": "dev10421",
                     *       "status": "PENDING",
                     *       "refundValue": 50,
                     *       "providerTransactionId": "D999999992026112015000vebXIsjBfE",
                     *       "generateTime": "2026-11-20T15:00:10.000Z"
                     *     }
                     */
                    "application/json": {
                        externalId: string;
                        /** Format: date-time */
                        generateTime: string;
                        /** @description correlates the webhooks (the refund end-to-end id, D...) */
                        providerTransactionId: string;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        refundValue: number;
                        status: "PENDING" | "CONFIRMED" | "ERROR";
                        /** Format: uuid */
                        transactionId: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "refundValue is required"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Original transaction not found, or not a received PIX",
                     *       "userMessage": "O recurso solicitado não foi encontrado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "PROVIDER_UNAVAILABLE",
                     *       "message": "The payment provider cannot be reached. Nothing was stored and no money was held; retry.",
                     *       "userMessage": "O provedor de pagamentos está indisponível no momento. Tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error",
                     *       "errorCode": "PROVIDER_UNAVAILABLE",
                     *       "details": {
                     *         "provider": "sandbox",
                     *         "scenario": "error:provider-unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/refund-in/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "2",
                     *       "externalId": "order-1042",
                     *       "type": "PAYMENT",
                     *       "status": "CONFIRMED",
                     *       "originalAmount": 150,
                     *       "feeAmount": 0,
                     *       "finalAmount": 150,
                     *       "e2eId": "E60746948202611201500OTlFSd4o368",
                     *       "counterpartName": "Maria da Silva",
                     *       "counterpartDocument": "***.444.777-**",
                     *       "counterpartAccountBankCode": "237",
                     *       "counterpartAccountBranch": null,
                     *       "counterpartAccountNumber": null,
                     *       "counterpartAccountIspb": "60746948",
                     *       "counterpartAccountBankName": "Banco Bradesco S.A.",
                     *       "createdAt": "2026-11-20T15:00:05.000Z",
                     *       "updatedAt": "2026-11-20T15:00:05.000Z",
                     *       "processedAt": "2026-11-20T15:00:05.000Z"
                     *     }
                     */
                    "application/json": {
                        counterpartAccountBankCode: string | null;
                        counterpartAccountBankName: string | null;
                        counterpartAccountBranch: string | null;
                        counterpartAccountIspb: string | null;
                        counterpartAccountNumber: string | null;
                        counterpartDocument: string | null;
                        counterpartName: string | null;
                        createdAt: string;
                        e2eId: string | null;
                        externalId: string | null;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        feeAmount: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        finalAmount: number;
                        id: string;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        originalAmount: number;
                        processedAt: string | null;
                        status: "PENDING" | "CONFIRMED" | "ERROR";
                        type: "PAYMENT" | "REFUND_IN" | "REFUND_OUT" | "WITHDRAW" | "TRANSFER";
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "id must be at most 255 characters long"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Transaction not found",
                     *       "userMessage": "O recurso solicitado não foi encontrado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/pix/transaction/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    resendWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id, transactionId, externalId or end-to-end id */
                transactionIdentifier: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    /** @description used for this resend only, not stored */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Webhook resent to 1 URL; first attempt: the receiver answered 200",
                     *       "webhookLogId": 5,
                     *       "sentAt": "2026-11-20T15:00:35.000Z",
                     *       "statusCode": 200
                     *     }
                     */
                    "application/json": {
                        message: string;
                        sentAt: string;
                        /** @description the HTTP status the destination answered; 0 when no answer came */
                        statusCode: number;
                        webhookLogId: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "transactionIdentifier must be at most 255 characters long"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "WEBHOOK_TRANSACTION_NOT_FOUND",
                     *       "message": "Transaction not found.",
                     *       "userMessage": "Transação não encontrada.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Not Found",
                     *       "errorCode": "WEBHOOK_TRANSACTION_NOT_FOUND"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "userMessage": "Muitas requisições. Aguarde e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Too Many Requests",
                     *       "details": {
                     *         "retryAfterSeconds": 42
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/resend-webhook/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /** @description UTC date, inclusive; default today */
                endDate?: string;
                endToEndId?: string;
                externalId?: string;
                page?: number;
                size?: number;
                /** @description UTC date, inclusive; default 31 days before endDate */
                startDate?: string;
                status?: "PENDING" | "CONFIRMED" | "ERROR";
                type?: "PAYMENT" | "WITHDRAW" | "REFUND_IN" | "REFUND_OUT";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "transactionId": "fd3c6669-c1dd-46d2-85e8-3e57153b4268",
                     *           "externalId": null,
                     *           "status": "Confirmado",
                     *           "operationType": "Refund out",
                     *           "movementType": "CREDIT",
                     *           "originalAmount": 89.9,
                     *           "feeAmount": 0,
                     *           "finalAmount": 89.9,
                     *           "endToEndId": "D58160789202611201500POL1tw2kXh7",
                     *           "createdAt": "2026-11-20T15:00:20.000Z",
                     *           "processedAt": "2026-11-20T15:00:20.000Z",
                     *           "counterpart": {
                     *             "name": "Maria da Silva",
                     *             "document": "***.444.777-**",
                     *             "bank": {
                     *               "bankISPB": "58160789",
                     *               "bankName": "Banco Safra S.A.",
                     *               "bankCode": "422",
                     *               "accountBranch": "5953",
                     *               "accountNumber": "303952-2"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "transactionId": "fd023564-25af-460d-9b7a-7dfee7fbedc1",
                     *           "externalId": "payout-2201",
                     *           "status": "Confirmado",
                     *           "operationType": "Pix out",
                     *           "movementType": "DEBIT",
                     *           "originalAmount": 89.9,
                     *           "feeAmount": 0,
                     *           "finalAmount": 89.9,
                     *           "endToEndId": "E99999999202611201500TGFSOxOw8wX",
                     *           "createdAt": "2026-11-20T15:00:15.000Z",
                     *           "processedAt": "2026-11-20T15:00:20.000Z",
                     *           "counterpart": {
                     *             "name": "Maria da Silva",
                     *             "document": "***.444.777-**",
                     *             "bank": {
                     *               "bankISPB": "58160789",
                     *               "bankName": "Banco Safra S.A.",
                     *               "bankCode": "422",
                     *               "accountBranch": "5953",
                     *               "accountNumber": "303952-2"
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "page": 1,
                     *         "size": 2,
                     *         "total": 5,
                     *         "totalPages": 3,
                     *         "hasNext": true,
                     *         "hasPrevious": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            counterpart: {
                                bank: {
                                    accountBranch: string | null;
                                    accountNumber: string | null;
                                    bankCode: string | null;
                                    bankISPB: string | null;
                                    bankName: string | null;
                                };
                                document: string | null;
                                name: string | null;
                            };
                            createdAt: string;
                            endToEndId: string | null;
                            externalId: string | null;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            feeAmount: number;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            finalAmount: number;
                            /** @description CREDIT or DEBIT */
                            movementType: string;
                            /** @description Pix in, Pix out, Refund in or Refund out */
                            operationType: string;
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            originalAmount: number;
                            processedAt: string | null;
                            /** @description Pendente, Confirmado or Error */
                            status: string;
                            /** Format: uuid */
                            transactionId: string;
                        }[];
                        metadata: {
                            hasNext: boolean;
                            hasPrevious: boolean;
                            page: number;
                            size: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/transactions",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "page must be an integer"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/transactions",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/transactions",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope pix:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "pix:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/transactions",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/transactions",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    replayWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-20T00:00:00Z",
                 *       "status": "failed"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-or-date-time
                     * @description replay the deliveries of events created at or after this instant (a date alone: 00:00 UTC)
                     */
                    since: string;
                    /** @description failed: the deliveries whose last attempt failed for good; all: every finished delivery */
                    status: "failed" | "all";
                    /**
                     * @description one of the 7 event names
                     * @enum {string}
                     */
                    type?: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "queued": 3
                     *     }
                     */
                    "application/json": {
                        /** @description deliveries queued again (one per event and active URL) */
                        queued: number;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "since is required",
                     *         "status is required"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 429,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Too many requests. Retry after the time in the Retry-After header.",
                     *       "userMessage": "Muitas requisições. Aguarde e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Too Many Requests",
                     *       "details": {
                     *         "retryAfterSeconds": 42
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhook-deliveries/replay",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accountId": 1,
                     *       "webhooks": [],
                     *       "total": 0
                     *     }
                     */
                    "application/json": {
                        accountId: number;
                        total: number;
                        webhooks: {
                            createdAt: string;
                            headers: {
                                [key: string]: string;
                            };
                            id: number;
                            isActive: boolean;
                            /**
                             * @description one of the 7 event names
                             * @enum {string}
                             */
                            type: "cash_in" | "cash_out" | "refund_in" | "refund_out" | "med_created" | "med_accepted" | "med_rejected";
                            updatedAt: string;
                            url: string;
                            /** @description increments each time the URL is registered again */
                            version: number;
                        }[];
                    };
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:read",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:read"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "GET",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    registerWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": false,
                     *       "message": "Webhook registration through the API is temporarily disabled; webhooks are managed in the account dashboard. Nothing was stored."
                     *     }
                     */
                    "application/json": {
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "The request is invalid."
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "userMessage": "A requisição é grande demais.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "userMessage": "Formato de conteúdo não suportado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks",
                     *       "method": "POST",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    unregisterWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "userMessage": "Os dados enviados são inválidos. Verifique os campos e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "userMessage": "Token de acesso inválido ou expirado. Gere um novo token e tente novamente.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": "This route needs the scope webhook:write",
                     *       "userMessage": "Você não tem permissão para realizar esta operação.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Forbidden",
                     *       "details": {
                     *         "requiredScope": "webhook:write"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": "Not found.",
                     *       "userMessage": "O recurso solicitado não foi encontrado.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "userMessage": "Ocorreu um erro inesperado. Tente novamente mais tarde.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "timestamp": "2026-11-20T15:00:00.000Z",
                     *       "path": "/api/webhooks/6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b",
                     *       "method": "DELETE",
                     *       "code": "HTTP_ERROR",
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "userMessage": "Serviço temporariamente indisponível. Tente novamente em instantes.",
                     *       "errorId": "0b6f7c2e-3d5a-4f7e-9c1d-2a4b6c8d0e1f",
                     *       "error": "Service Unavailable",
                     *       "details": {
                     *         "retryAfterSeconds": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiError"];
                };
            };
        };
    };
    getCob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 26-35 letters and digits */
                txid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "calendario": {
                     *         "criacao": "2026-11-20T15:00:30.000Z",
                     *         "expiracao": 3600
                     *       },
                     *       "txid": "fatura2026110000000000000001",
                     *       "revisao": 0,
                     *       "loc": {
                     *         "id": 2,
                     *         "txid": "fatura2026110000000000000001",
                     *         "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *         "tipoCob": "cob",
                     *         "criacao": "2026-11-20T15:00:30.000Z"
                     *       },
                     *       "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *       "status": "ATIVA",
                     *       "valor": {
                     *         "original": "123.45",
                     *         "modalidadeAlteracao": 0
                     *       },
                     *       "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
                     *       "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *       "devedor": {
                     *         "nome": "Empresa Exemplo Ltda",
                     *         "cnpj": "11222333000181"
                     *       },
                     *       "solicitacaoPagador": "Fatura 2026-11"
                     *     }
                     */
                    "application/json": {
                        calendario: {
                            /** Format: date-time */
                            criacao: string;
                            expiracao: number;
                        };
                        /** Format: dict-key */
                        chave: string;
                        devedor?: {
                            /** Format: cnpj */
                            cnpj?: string;
                            /** Format: cpf */
                            cpf?: string;
                            nome: string;
                        };
                        infoAdicionais?: {
                            nome: string;
                            valor: string;
                        }[];
                        loc: {
                            /** Format: date-time */
                            criacao: string;
                            id: number;
                            location: string;
                            /** @enum {string} */
                            tipoCob: "cob";
                            txid: string;
                        };
                        /** @description the same value as loc.location */
                        location: string;
                        /** @description the PIX received for the charge, once paid (central bank CobCompleta) */
                        pix?: {
                            /** Format: dict-key */
                            chave: string;
                            devolucoes: components["schemas"]["Devolucao"][];
                            /** @description the id a devolução names (PUT /pix/{e2eid}/devolucao/{id}) */
                            endToEndId: string;
                            /** Format: date-time */
                            horario: string;
                            txid: string;
                            /** Format: decimal-amount */
                            valor: string;
                        }[];
                        pixCopiaECola: string;
                        revisao: number;
                        solicitacaoPagador?: string;
                        status: string;
                        txid: string;
                        valor: {
                            modalidadeAlteracao: number;
                            /** Format: decimal-amount */
                            original: string;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "txid has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:read",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Charge cobexemplo000000000000000001 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    putCob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path: {
                /** @description 26-35 letters and digits */
                txid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "calendario": {
                 *         "expiracao": 3600
                 *       },
                 *       "devedor": {
                 *         "cnpj": "11222333000181",
                 *         "nome": "Empresa Exemplo Ltda"
                 *       },
                 *       "valor": {
                 *         "original": "123.45",
                 *         "modalidadeAlteracao": 0
                 *       },
                 *       "chave": "123e4567-e12b-42d1-a456-426655440000",
                 *       "solicitacaoPagador": "Fatura 2026-11"
                 *     }
                 */
                "application/json": {
                    calendario: {
                        /** @description seconds, default 86400 */
                        expiracao?: number;
                    };
                    /** Format: dict-key */
                    chave: string;
                    devedor?: {
                        /** Format: cnpj */
                        cnpj?: string;
                        /**
                         * Format: cpf
                         * @description exactly 11 digits
                         */
                        cpf?: string;
                        nome: string;
                    };
                    infoAdicionais?: {
                        nome: string;
                        valor: string;
                    }[];
                    solicitacaoPagador?: string;
                    valor: {
                        modalidadeAlteracao?: 0 | 1;
                        /**
                         * Format: decimal-amount
                         * @description BRL with exactly two decimals, 0.01 to 999999999.99
                         */
                        original: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "calendario": {
                     *         "criacao": "2026-11-20T15:00:30.000Z",
                     *         "expiracao": 3600
                     *       },
                     *       "txid": "fatura2026110000000000000001",
                     *       "revisao": 0,
                     *       "loc": {
                     *         "id": 2,
                     *         "txid": "fatura2026110000000000000001",
                     *         "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *         "tipoCob": "cob",
                     *         "criacao": "2026-11-20T15:00:30.000Z"
                     *       },
                     *       "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *       "status": "ATIVA",
                     *       "valor": {
                     *         "original": "123.45",
                     *         "modalidadeAlteracao": 0
                     *       },
                     *       "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
                     *       "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/891ffb7d46eddedf7151694c17f1ec375204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***63040417",
                     *       "devedor": {
                     *         "nome": "Empresa Exemplo Ltda",
                     *         "cnpj": "11222333000181"
                     *       },
                     *       "solicitacaoPagador": "Fatura 2026-11"
                     *     }
                     */
                    "application/json": {
                        calendario: {
                            /** Format: date-time */
                            criacao: string;
                            expiracao: number;
                        };
                        /** Format: dict-key */
                        chave: string;
                        devedor?: {
                            /** Format: cnpj */
                            cnpj?: string;
                            /** Format: cpf */
                            cpf?: string;
                            nome: string;
                        };
                        infoAdicionais?: {
                            nome: string;
                            valor: string;
                        }[];
                        loc: {
                            /** Format: date-time */
                            criacao: string;
                            id: number;
                            location: string;
                            /** @enum {string} */
                            tipoCob: "cob";
                            txid: string;
                        };
                        /** @description the same value as loc.location */
                        location: string;
                        /** @description the PIX received for the charge, once paid (central bank CobCompleta) */
                        pix?: {
                            /** Format: dict-key */
                            chave: string;
                            devolucoes: components["schemas"]["Devolucao"][];
                            /** @description the id a devolução names (PUT /pix/{e2eid}/devolucao/{id}) */
                            endToEndId: string;
                            /** Format: date-time */
                            horario: string;
                            txid: string;
                            /** Format: decimal-amount */
                            valor: string;
                        }[];
                        pixCopiaECola: string;
                        revisao: number;
                        solicitacaoPagador?: string;
                        status: string;
                        txid: string;
                        valor: {
                            modalidadeAlteracao: number;
                            /** Format: decimal-amount */
                            original: string;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "calendario is required",
                     *         "valor is required",
                     *         "chave is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:write",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "This txid was already used by a charge of the account.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    patchCob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 26-35 letters and digits */
                txid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    status: "REMOVIDA_PELO_USUARIO_RECEBEDOR";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "calendario": {
                     *         "criacao": "2026-11-20T15:00:30.000Z",
                     *         "expiracao": 3600
                     *       },
                     *       "txid": "fatura2026110000000000000002",
                     *       "revisao": 1,
                     *       "loc": {
                     *         "id": 3,
                     *         "txid": "fatura2026110000000000000002",
                     *         "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
                     *         "tipoCob": "cob",
                     *         "criacao": "2026-11-20T15:00:30.000Z"
                     *       },
                     *       "location": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
                     *       "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR",
                     *       "valor": {
                     *         "original": "123.45",
                     *         "modalidadeAlteracao": 0
                     *       },
                     *       "chave": "46065c7b-d59b-4c75-a779-72c97c593223",
                     *       "pixCopiaECola": "00020101021226750014br.gov.bcb.pix2553127.0.0.1:3000/qr/v2/1ccf39447ea1ca4e5e2b204a6b45a0105204000053039865406123.455802BR5917LOJA EXEMPLO LTDA6009SAO PAULO62070503***6304DB2C",
                     *       "devedor": {
                     *         "nome": "Empresa Exemplo Ltda",
                     *         "cnpj": "11222333000181"
                     *       },
                     *       "solicitacaoPagador": "Fatura 2026-11"
                     *     }
                     */
                    "application/json": {
                        calendario: {
                            /** Format: date-time */
                            criacao: string;
                            expiracao: number;
                        };
                        /** Format: dict-key */
                        chave: string;
                        devedor?: {
                            /** Format: cnpj */
                            cnpj?: string;
                            /** Format: cpf */
                            cpf?: string;
                            nome: string;
                        };
                        infoAdicionais?: {
                            nome: string;
                            valor: string;
                        }[];
                        loc: {
                            /** Format: date-time */
                            criacao: string;
                            id: number;
                            location: string;
                            /** @enum {string} */
                            tipoCob: "cob";
                            txid: string;
                        };
                        /** @description the same value as loc.location */
                        location: string;
                        /** @description the PIX received for the charge, once paid (central bank CobCompleta) */
                        pix?: {
                            /** Format: dict-key */
                            chave: string;
                            devolucoes: components["schemas"]["Devolucao"][];
                            /** @description the id a devolução names (PUT /pix/{e2eid}/devolucao/{id}) */
                            endToEndId: string;
                            /** Format: date-time */
                            horario: string;
                            txid: string;
                            /** Format: decimal-amount */
                            valor: string;
                        }[];
                        pixCopiaECola: string;
                        revisao: number;
                        solicitacaoPagador?: string;
                        status: string;
                        txid: string;
                        valor: {
                            modalidadeAlteracao: number;
                            /** Format: decimal-amount */
                            original: string;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "status is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:write",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Charge cobexemplo000000000000000001 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createDictTransfer: {
        parameters: {
            query?: never;
            header: {
                "x-idempotency-key": string;
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "pixKey": "maria.silva@example.com",
                 *       "creditorDocument": "11144477735",
                 *       "priority": "NORM",
                 *       "description": "Pagamento fornecedor",
                 *       "payment": {
                 *         "currency": "BRL",
                 *         "amount": 250
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: document
                     * @description CPF (11 digits) or CNPJ (14 characters), digits only
                     */
                    creditorDocument?: string;
                    description?: string;
                    /** @description seconds in queue; default 600 */
                    expiration?: number;
                    ispbDeny?: string[];
                    payment: {
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals
                         */
                        amount: number;
                        /** @enum {string} */
                        currency: "BRL";
                    };
                    paymentFlow?: string;
                    /** Format: dict-key */
                    pixKey: string;
                    priority?: "HIGH" | "NORM";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "endToEndId": "51299f4e-86f4-4277-a639-1df5276bd541",
                     *       "eventDate": "2026-11-20T15:00:25.000Z",
                     *       "id": 6,
                     *       "payment": {
                     *         "amount": 250,
                     *         "currency": "BRL"
                     *       },
                     *       "type": "PENDING"
                     *     }
                     */
                    "application/json": {
                        /** @description provisionally the idempotency key; the real one arrives with settlement */
                        endToEndId: string;
                        errorCode?: string | null;
                        errorMessage?: string | null;
                        /** Format: date-time */
                        eventDate: string;
                        id: number;
                        payment: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            amount: number;
                            currency: string;
                        };
                        type: "PENDING" | "COMPLETED" | "ERROR";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "pixKey is required",
                     *         "payment is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:write",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "A request with this idempotency key is still being processed.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Well formed, but refused by a business rule (the code says which) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 422,
                     *       "message": "This idempotency key was already used with a different request body.",
                     *       "error": "Unprocessable Entity"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getDictTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "endToEndId": "E99999999202611201500YfOiS46vVi9",
                     *       "eventDate": "2026-11-20T15:00:30.000Z",
                     *       "id": 6,
                     *       "payment": {
                     *         "amount": 250,
                     *         "currency": "BRL"
                     *       },
                     *       "type": "COMPLETED"
                     *     }
                     */
                    "application/json": {
                        /** @description provisionally the idempotency key; the real one arrives with settlement */
                        endToEndId: string;
                        errorCode?: string | null;
                        errorMessage?: string | null;
                        /** Format: date-time */
                        eventDate: string;
                        id: number;
                        payment: {
                            /**
                             * Format: money
                             * @description BRL, at most 2 decimals (format money)
                             */
                            amount: number;
                            currency: string;
                        };
                        type: "PENDING" | "COMPLETED" | "ERROR";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:read",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Transfer not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description METRICS_TOKEN is set and the request does not carry it as `Authorization: Bearer` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send Authorization: Bearer <METRICS_TOKEN>",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Production without METRICS_TOKEN: metrics are switched off */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Metrics are switched off in production: set METRICS_TOKEN to read them with it",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    oauthToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description percent-encoded (RFC 3986) PEM client certificate */
                "x-ssl-client-cert"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "clientId": "3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24",
                 *       "clientSecret": "cs_5Jk9Qw2Zr7Tx"
                 *     }
                 */
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    clientSecret: string;
                };
                /**
                 * @example {
                 *       "grant_type": "client_credentials",
                 *       "scope": "pix:read pix:write"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * Format: uuid
                     * @description with client_secret, when the client does not authenticate with HTTP Basic
                     */
                    client_id?: string;
                    client_secret?: string;
                    /** @enum {string} */
                    grant_type: "client_credentials";
                    /**
                     * @description space-separated; default: every scope of the credential
                     * @example pix:read pix:write
                     */
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vMTI3LjAuMC4xOjMwMDAifQ.c2ln",
                     *       "token_type": "Bearer",
                     *       "expires_in": 1800,
                     *       "scope": "pix:read"
                     *     }
                     */
                    "application/json": {
                        access_token: string;
                        expires_in: number;
                        scope: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "clientId is required; clientSecret is required"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Invalid client credentials.",
                     *       "error_code": "PUB_INVALID_CREDENTIALS"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "The request body is larger than 1 MiB."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "The request body must be JSON (Content-Type: application/json)."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header (RateLimit headers tell the budget) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "slow_down",
                     *       "error_description": "Too many failed authentication attempts for this client or from this address; retry after 42 seconds.",
                     *       "error_code": "RATE_LIMITED",
                     *       "hint": "Too many failed attempts; retry after 42 s."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "server_error",
                     *       "error_description": "An unexpected error occurred. Quote the errorId to support."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The payment network answered unexpectedly */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "server_error",
                     *       "error_description": "The authentication service returned an unrecognized error.",
                     *       "error_code": "PUB_AUTH_UPSTREAM_ERROR"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "temporarily_unavailable",
                     *       "error_description": "The authentication service is unreachable. Retry with exponential backoff.",
                     *       "error_code": "PUB_AUTH_UPSTREAM_UNAVAILABLE"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getDevolucao: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description end-to-end id of the received PIX */
                e2eid: string;
                /** @description client-generated refund id; a refund-in made with another externalId is here under the service's own id, its transactionId without hyphens */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dev20261120a",
                     *       "rtrId": "D99999999202611201500uRwWY6L79z8",
                     *       "valor": "10.00",
                     *       "natureza": "ORIGINAL",
                     *       "horario": {
                     *         "solicitacao": "2026-11-20T15:00:30.000Z",
                     *         "liquidacao": "2026-11-20T15:00:35.000Z"
                     *       },
                     *       "status": "DEVOLVIDO",
                     *       "descricao": "Devolução parcial do pedido 1042"
                     *     }
                     */
                    "application/json": {
                        descricao?: string;
                        horario: {
                            liquidacao?: string;
                            solicitacao: string;
                        };
                        id: string;
                        motivo?: string;
                        natureza: "ORIGINAL" | "RETIRADA" | "MED_OPERACIONAL" | "MED_FRAUDE";
                        rtrId: string;
                        status: "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";
                        /** Format: decimal-amount */
                        valor: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "e2eid has an invalid format"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:read",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Devolucao not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    putDevolucao: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sandbox only: picks what the simulated network does with this operation (production answers 400). The HTTP answer is unchanged; only the outcome and its webhook change. `success` or no header: settles after SANDBOX_SETTLEMENT_DELAY_MS (a charge: paid by a simulated payer). `delayed:Ns` (pattern ^delayed:[0-9]{1,6}s$): the same, N seconds later (at most 120). `pending` (charges only: cash-in and cob): waits for POST /sandbox/charges/{id}/pay or its expiry. Ends ERROR with this errorCode: `error:insufficient-funds` (INSUFFICIENT_FUNDS), `error:invalid-pix-key` (INVALID_PIX_KEY), `error:document-mismatch` (TAX_ID_MISMATCH), `error:account-blocked` (BLOCKED_ACCOUNT), `error:duplicate-id` (DUPLICATE_ID), `error:invalid-tax-id` (INVALID_TAX_ID), `error:account-closed` (ACCOUNT_CLOSED), `error:order-rejected` (ORDER_REJECTED), `error:payment-expired` (PAYMENT_EXPIRED), `error:settlement-timeout` (SETTLEMENT_TIMEOUT). `error:provider-unavailable`: answers 500 at once; nothing is stored and no money is held. */
                "x-sandbox-scenario"?: ("success" | "pending" | "error:insufficient-funds" | "error:invalid-pix-key" | "error:document-mismatch" | "error:account-blocked" | "error:duplicate-id" | "error:invalid-tax-id" | "error:account-closed" | "error:order-rejected" | "error:payment-expired" | "error:settlement-timeout" | "error:provider-unavailable") | string;
            };
            path: {
                /** @description end-to-end id of the received PIX */
                e2eid: string;
                /** @description client-generated refund id; a refund-in made with another externalId is here under the service's own id, its transactionId without hyphens */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "valor": "10.00",
                 *       "natureza": "ORIGINAL",
                 *       "descricao": "Devolução parcial do pedido 1042"
                 *     }
                 */
                "application/json": {
                    descricao?: string;
                    natureza?: "ORIGINAL" | "RETIRADA";
                    /**
                     * Format: decimal-amount
                     * @description two decimals; the sum of all refunds not above the PIX
                     */
                    valor: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dev20261120a",
                     *       "rtrId": "D99999999202611201500uRwWY6L79z8",
                     *       "valor": "10.00",
                     *       "natureza": "ORIGINAL",
                     *       "horario": {
                     *         "solicitacao": "2026-11-20T15:00:30.000Z"
                     *       },
                     *       "status": "EM_PROCESSAMENTO",
                     *       "descricao": "Devolução parcial do pedido 1042"
                     *     }
                     */
                    "application/json": {
                        descricao?: string;
                        horario: {
                            liquidacao?: string;
                            solicitacao: string;
                        };
                        id: string;
                        motivo?: string;
                        natureza: "ORIGINAL" | "RETIRADA" | "MED_OPERACIONAL" | "MED_FRAUDE";
                        rtrId: string;
                        status: "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO";
                        /** Format: decimal-amount */
                        valor: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "valor is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "The access token is missing, invalid or expired.",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "This route needs the scope pix:write",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Original transaction not found, or not a received PIX",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "This devolucao id was already used for this PIX.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Well formed, but refused by a business rule (the code says which) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 422,
                     *       "message": "The refund deadline (89 days after the PIX was received) has passed.",
                     *       "error": "Unprocessable Entity"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getLocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                locationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A compact JWS whose payload is the charge (BACEN PIX, dynamic BR Code) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/jose": string;
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "locationId must be at most 64 characters long"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Location 891ffb7d46eddedf7151694c17f1ec37 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": "ok",
                     *         "migrations": "ok",
                     *         "scheduler": "ok"
                     *       }
                     *     }
                     */
                    "application/json": {
                        checks: {
                            database: "ok" | string;
                            draining?: "ok" | string;
                            migrations: "ok" | string;
                            scheduler: "ok" | string;
                        };
                        status: "ready" | "not_ready";
                    };
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            database: "ok" | string;
                            draining?: "ok" | string;
                            migrations: "ok" | string;
                            scheduler: "ok" | string;
                        };
                        status: "ready" | "not_ready";
                    };
                };
            };
        };
    };
    payCharge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "payer": {
                 *         "name": "João Souza",
                 *         "document": "52998224725",
                 *         "ispb": "00000000"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description with the admin token */
                    accountId?: number;
                    /**
                     * Format: money
                     * @description another amount only when modalidadeAlteracao is 1
                     */
                    amount?: number;
                    payer?: {
                        /**
                         * Format: document
                         * @description CPF (11 digits) or CNPJ (14 characters), digits only
                         */
                        document: string;
                        /**
                         * Format: pix-participant
                         * @description 8-digit ISPB of a known PIX participant
                         */
                        ispb: string;
                        name: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 2,
                     *       "transactionId": "2da5409c-5022-4dca-a8a8-ff15728caf22",
                     *       "externalId": "order-1042",
                     *       "type": "PAYMENT",
                     *       "status": "CONFIRMED",
                     *       "movementType": "CREDIT",
                     *       "originalAmount": 150,
                     *       "feeAmount": 0,
                     *       "finalAmount": 150,
                     *       "endToEndId": "E60746948202611201500OTlFSd4o368",
                     *       "counterpart": {
                     *         "name": "Maria da Silva",
                     *         "document": "***.444.777-**",
                     *         "bank": {
                     *           "bankISPB": "60746948",
                     *           "bankName": "Banco Bradesco S.A.",
                     *           "bankCode": "237",
                     *           "accountBranch": null,
                     *           "accountNumber": null
                     *         }
                     *       },
                     *       "createdAt": "2026-11-20T15:00:05.000Z",
                     *       "processedAt": "2026-11-20T15:00:05.000Z"
                     *     }
                     */
                    "application/json": {
                        counterpart: unknown;
                        createdAt: string;
                        endToEndId: string | null;
                        externalId: string | null;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        feeAmount: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        finalAmount: number;
                        id: number;
                        movementType: string;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        originalAmount: number;
                        processedAt: string | null;
                        status: string;
                        /** Format: uuid */
                        transactionId: string;
                        type: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id must be at most 64 characters long"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Charge 6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The charge cannot be paid: it was already paid",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "seconds": 3600
                 *     }
                 */
                "application/json": {
                    seconds: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "now": "2026-11-20T16:00:35.000Z",
                     *       "jobsRun": 2
                     *     }
                     */
                    "application/json": {
                        jobsRun: number;
                        now: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "seconds is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createDeposit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "accountId": 2,
                 *       "value": 1000,
                 *       "payer": {
                 *         "name": "João Souza",
                 *         "document": "52998224725",
                 *         "ispb": "00000000"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description with the admin token */
                    accountId?: number;
                    /**
                     * Format: money
                     * @description alias of value (its former name), still accepted; exactly one of value and amount
                     */
                    amount?: number;
                    payer?: {
                        /**
                         * Format: document
                         * @description CPF (11 digits) or CNPJ (14 characters), digits only
                         */
                        document: string;
                        /**
                         * Format: pix-participant
                         * @description 8-digit ISPB of a known PIX participant
                         */
                        ispb: string;
                        name: string;
                    };
                    /**
                     * Format: money
                     * @description BRL the payer sends, at most 2 decimals; exactly one of value and amount
                     */
                    value?: number;
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "transactionId": "640d82ba-415a-4b1c-9d47-f2916abc88f4",
                     *       "externalId": null,
                     *       "type": "PAYMENT",
                     *       "status": "CONFIRMED",
                     *       "movementType": "CREDIT",
                     *       "originalAmount": 1000,
                     *       "feeAmount": 0,
                     *       "finalAmount": 1000,
                     *       "endToEndId": "E00000000202611201500ZKZBUVL7nq6",
                     *       "counterpart": {
                     *         "name": "João Souza",
                     *         "document": "***.982.247-**",
                     *         "bank": {
                     *           "bankISPB": "00000000",
                     *           "bankName": "Banco do Brasil S.A.",
                     *           "bankCode": "001",
                     *           "accountBranch": null,
                     *           "accountNumber": null
                     *         }
                     *       },
                     *       "createdAt": "2026-11-20T15:00:00.000Z",
                     *       "processedAt": "2026-11-20T15:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        counterpart: unknown;
                        createdAt: string;
                        endToEndId: string | null;
                        externalId: string | null;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        feeAmount: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        finalAmount: number;
                        id: number;
                        movementType: string;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        originalAmount: number;
                        processedAt: string | null;
                        status: string;
                        /** Format: uuid */
                        transactionId: string;
                        type: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "value is required (amount is accepted as its alias)"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    registerDictKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "key": "maria.silva@example.com",
                 *       "keyType": "EMAIL",
                 *       "name": "Maria da Silva",
                 *       "document": "11144477735",
                 *       "ispb": "60746948",
                 *       "branch": "0001",
                 *       "account": "123456"
                 *     }
                 */
                "application/json": {
                    account?: string;
                    /** @description with the admin token (not needed otherwise) */
                    accountId?: number;
                    branch?: string;
                    /**
                     * Format: document
                     * @description CPF (11 digits) or CNPJ (14 characters), digits only
                     */
                    document: string;
                    /**
                     * Format: pix-participant
                     * @description 8-digit ISPB of a known PIX participant
                     */
                    ispb: string;
                    key: string;
                    keyType: "CPF" | "CNPJ" | "EMAIL" | "PHONE" | "EVP" | "DOCUMENT" | "RANDOM";
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key": "maria.silva@example.com",
                     *       "keyType": "EMAIL",
                     *       "name": "Maria da Silva",
                     *       "document": "11144477735",
                     *       "ispb": "60746948",
                     *       "bankName": "Banco Bradesco S.A.",
                     *       "branch": "0001",
                     *       "account": "123456"
                     *     }
                     */
                    "application/json": {
                        account: string | null;
                        bankName: string;
                        branch: string | null;
                        document: string;
                        ispb: string;
                        key: string;
                        keyType: string;
                        name: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "key is required",
                     *         "keyType is required",
                     *         "name is required",
                     *         "document is required",
                     *         "ispb is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Account 2 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The key belongs to an account of this service",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    openMed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "endToEndId": "E60746948202611201500OTlFSd4o368",
                 *       "cause": "SCAM",
                 *       "amount": 50
                 *     }
                 */
                "application/json": {
                    /** @description with the admin token */
                    accountId?: number;
                    /**
                     * Format: money
                     * @description the disputed amount; the whole PIX when absent
                     */
                    amount?: number;
                    cause?: "UNAUTHORIZED_TRANSACTION" | "SOCIAL_ENGINEERING" | "ACCOUNT_TAKEOVER" | "SCAM" | "COERCION" | "OPERATIONAL_FLAW" | "OTHER";
                    description?: string;
                    endToEndId: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "endToEnd": "E60746948202611201500OTlFSd4o368",
                     *       "status": "OPEN",
                     *       "reason": "REFUND_REQUEST",
                     *       "cause": "SCAM",
                     *       "description": null,
                     *       "analysisResult": null,
                     *       "analysisDetails": null,
                     *       "requestingBank": {
                     *         "ispb": "60746948",
                     *         "name": "Banco Bradesco S.A."
                     *       },
                     *       "contestedBank": {
                     *         "ispb": "99999999",
                     *         "name": "PIX Account Sandbox"
                     *       },
                     *       "transaction": {
                     *         "amount": 150,
                     *         "type": "PIX",
                     *         "transactionType": "CASH_IN",
                     *         "name": "Maria da Silva",
                     *         "document": "***.444.777-**",
                     *         "dateTime": "2026-11-20T15:00:05.000Z"
                     *       },
                     *       "isReconciled": true,
                     *       "originalTransactionId": 2,
                     *       "createdAt": "2026-11-20T15:00:35.000Z",
                     *       "updatedAt": "2026-11-20T15:00:35.000Z"
                     *     }
                     */
                    "application/json": {
                        analysisDetails: string | null;
                        analysisResult: "APPROVED" | "REJECTED" | null;
                        cause: string | null;
                        contestedBank: {
                            ispb: string;
                            name: string;
                        };
                        createdAt: string;
                        description: string | null;
                        endToEnd: string;
                        id: number;
                        isReconciled: boolean;
                        originalTransactionId: number | null;
                        reason: "REFUND_REQUEST" | "REFUND_CANCELLATION";
                        requestingBank: {
                            ispb: string;
                            name: string;
                        };
                        status: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
                        transaction: {
                            amount: number;
                            dateTime: string;
                            document: string | null;
                            name: string | null;
                            transactionType: string;
                            type: string;
                        } | null;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "endToEndId is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "No received PIX of this account has that endToEndId",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    transitionMed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description numeric id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "ANALYZED",
                 *       "analysisResult": "REJECTED",
                 *       "analysisDetails": "Pagamento legítimo: produto entregue"
                 *     }
                 */
                "application/json": {
                    /** @description with the admin token */
                    accountId?: number;
                    analysisDetails?: string;
                    analysisResult?: "APPROVED" | "REJECTED";
                    to: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "endToEnd": "E60746948202611201500OTlFSd4o368",
                     *       "status": "ANALYZED",
                     *       "reason": "REFUND_REQUEST",
                     *       "cause": "SCAM",
                     *       "description": null,
                     *       "analysisResult": "REJECTED",
                     *       "analysisDetails": "Pagamento legítimo: produto entregue",
                     *       "requestingBank": {
                     *         "ispb": "60746948",
                     *         "name": "Banco Bradesco S.A."
                     *       },
                     *       "contestedBank": {
                     *         "ispb": "99999999",
                     *         "name": "PIX Account Sandbox"
                     *       },
                     *       "transaction": {
                     *         "amount": 150,
                     *         "type": "PIX",
                     *         "transactionType": "CASH_IN",
                     *         "name": "Maria da Silva",
                     *         "document": "***.444.777-**",
                     *         "dateTime": "2026-11-20T15:00:05.000Z"
                     *       },
                     *       "isReconciled": true,
                     *       "originalTransactionId": 2,
                     *       "createdAt": "2026-11-20T15:00:35.000Z",
                     *       "updatedAt": "2026-11-20T15:00:35.000Z"
                     *     }
                     */
                    "application/json": {
                        analysisDetails: string | null;
                        analysisResult: "APPROVED" | "REJECTED" | null;
                        cause: string | null;
                        contestedBank: {
                            ispb: string;
                            name: string;
                        };
                        createdAt: string;
                        description: string | null;
                        endToEnd: string;
                        id: number;
                        isReconciled: boolean;
                        originalTransactionId: number | null;
                        reason: "REFUND_REQUEST" | "REFUND_CANCELLATION";
                        requestingBank: {
                            ispb: string;
                            name: string;
                        };
                        status: "OPEN" | "RECEIVED" | "CANCELLED" | "ANALYZED";
                        transaction: {
                            amount: number;
                            dateTime: string;
                            document: string | null;
                            name: string | null;
                            transactionType: string;
                            type: string;
                        } | null;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "to is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "MED 7 not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The MED cannot move to that status from its current status.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    refundPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 89.9
                 *     }
                 */
                "application/json": {
                    /** @description with the admin token */
                    accountId?: number;
                    /**
                     * Format: money
                     * @description BRL, at most 2 decimals (format money)
                     */
                    amount: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 5,
                     *       "transactionId": "fd3c6669-c1dd-46d2-85e8-3e57153b4268",
                     *       "externalId": null,
                     *       "type": "REFUND_OUT",
                     *       "status": "CONFIRMED",
                     *       "movementType": "CREDIT",
                     *       "originalAmount": 89.9,
                     *       "feeAmount": 0,
                     *       "finalAmount": 89.9,
                     *       "endToEndId": "D58160789202611201500POL1tw2kXh7",
                     *       "counterpart": {
                     *         "name": "Maria da Silva",
                     *         "document": "***.444.777-**",
                     *         "bank": {
                     *           "bankISPB": "58160789",
                     *           "bankName": "Banco Safra S.A.",
                     *           "bankCode": "422",
                     *           "accountBranch": "5953",
                     *           "accountNumber": "303952-2"
                     *         }
                     *       },
                     *       "createdAt": "2026-11-20T15:00:20.000Z",
                     *       "processedAt": "2026-11-20T15:00:20.000Z"
                     *     }
                     */
                    "application/json": {
                        counterpart: unknown;
                        createdAt: string;
                        endToEndId: string | null;
                        externalId: string | null;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        feeAmount: number;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        finalAmount: number;
                        id: number;
                        movementType: string;
                        /**
                         * Format: money
                         * @description BRL, at most 2 decimals (format money)
                         */
                        originalAmount: number;
                        processedAt: string | null;
                        status: string;
                        /** Format: uuid */
                        transactionId: string;
                        type: string;
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "amount is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Payout not found",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "Only a CONFIRMED payout can be refunded by the receiving bank.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    listTestClocks: {
        parameters: {
            query?: {
                /** @description 1-based page number */
                page?: number;
                /** @description items per page, 1-100 */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "5d2f8a1c-7e3b-4c9d-8a6f-1b2c3d4e5f60",
                     *           "name": "refund window trial",
                     *           "frozenTime": "2027-01-04T15:00:00.000Z",
                     *           "status": "ready",
                     *           "accountIds": [
                     *             42
                     *           ]
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "total": 1,
                     *         "page": 1,
                     *         "pageSize": 20,
                     *         "totalPages": 1
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["TestClock"][];
                        metadata: {
                            page: number;
                            pageSize: number;
                            /** @description items matching the filters, on every page */
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "page must be an integer"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    createTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "frozenTime": "2027-01-04T15:00:00.000Z",
                 *       "accountIds": [
                 *         42
                 *       ],
                 *       "name": "refund window trial"
                 *     }
                 */
                "application/json": {
                    /** @description accounts not on another clock */
                    accountIds: number[];
                    /**
                     * Format: date-time
                     * @description where the clock stands
                     */
                    frozenTime: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5d2f8a1c-7e3b-4c9d-8a6f-1b2c3d4e5f60",
                     *       "name": "refund window trial",
                     *       "frozenTime": "2027-01-04T15:00:00.000Z",
                     *       "status": "ready",
                     *       "accountIds": [
                     *         42
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description the accounts on this clock */
                        accountIds: number[];
                        /**
                         * Format: date-time
                         * @description the time the accounts on the clock see; it moves only when advanced
                         */
                        frozenTime: string;
                        /** Format: uuid */
                        id: string;
                        name: string | null;
                        /** @description `advancing` while what fell due for its accounts runs, then `ready` */
                        status: "ready" | "advancing";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "frozenTime is required",
                     *         "accountIds is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The request conflicts with the current state of the resource.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    getTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5d2f8a1c-7e3b-4c9d-8a6f-1b2c3d4e5f60",
                     *       "name": "refund window trial",
                     *       "frozenTime": "2027-01-04T15:00:00.000Z",
                     *       "status": "ready",
                     *       "accountIds": [
                     *         42
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description the accounts on this clock */
                        accountIds: number[];
                        /**
                         * Format: date-time
                         * @description the time the accounts on the clock see; it moves only when advanced
                         */
                        frozenTime: string;
                        /** Format: uuid */
                        id: string;
                        name: string | null;
                        /** @description `advancing` while what fell due for its accounts runs, then `ready` */
                        status: "ready" | "advancing";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id must be a UUID"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    deleteTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "id must be a UUID"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    advanceTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "2027-04-04T15:00:00.000Z"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description after the clock's frozenTime
                     */
                    to: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5d2f8a1c-7e3b-4c9d-8a6f-1b2c3d4e5f60",
                     *       "name": "refund window trial",
                     *       "frozenTime": "2027-01-04T15:00:00.000Z",
                     *       "status": "advancing",
                     *       "accountIds": [
                     *         42
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description the accounts on this clock */
                        accountIds: number[];
                        /**
                         * Format: date-time
                         * @description the time the accounts on the clock see; it moves only when advanced
                         */
                        frozenTime: string;
                        /** Format: uuid */
                        id: string;
                        name: string | null;
                        /** @description `advancing` while what fell due for its accounts runs, then `ready` */
                        status: "ready" | "advancing";
                    };
                };
            };
            /** @description Invalid request: the message names each invalid field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 400,
                     *       "message": [
                     *         "to is required"
                     *       ],
                     *       "error": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 401,
                     *       "message": "Send the account's bearer token, or the admin token with accountId",
                     *       "error": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Authenticated, but not allowed (scope, certificate or account state) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 403,
                     *       "message": "The access token does not grant the scope this route needs.",
                     *       "error": "Forbidden"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Not found (also a resource of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 404,
                     *       "message": "Not found.",
                     *       "error": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Conflicts with the current state (or the idempotency key was used with another body) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 409,
                     *       "message": "The request conflicts with the current state of the resource.",
                     *       "error": "Conflict"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 413,
                     *       "message": "The request body is larger than 1 MiB.",
                     *       "error": "Payload Too Large"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 415,
                     *       "message": "The request body must be JSON (Content-Type: application/json).",
                     *       "error": "Unsupported Media Type"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description Unexpected error (the errorId is logged) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 500,
                     *       "message": "An unexpected error occurred. Quote the errorId to support.",
                     *       "error": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
            /** @description A dependency is unavailable or slow: retry after the Retry-After header */
            503: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "statusCode": 503,
                     *       "message": "The service is temporarily unavailable. Retry with exponential backoff.",
                     *       "error": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ShortError"];
                };
            };
        };
    };
    cashInWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionEvent"] | components["schemas"]["ReceiveEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    cashOutWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionEvent"] | components["schemas"]["TransferEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    medAcceptedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MedEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    medCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MedEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    medRejectedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MedEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundInWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionEvent"] | components["schemas"]["RefundEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundOutWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description the delivery id; the same on every retry (deduplicate on it)
                 * @example msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60
                 */
                "webhook-id": string;
                /**
                 * @description Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the account's `whsec_` secret (space-separated when several)
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
                /**
                 * @description Unix seconds of the signature; refuse it when more than 5 minutes away from your clock
                 * @example 1795186800
                 */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionEvent"];
            };
        };
        responses: {
            /** @description Received; any other answer is retried */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
