import type { Examples } from './example-types.ts';
import type { AccountStatus } from '../../domain/closed-lists.ts';

/** Examples of the operator routes added for issue 21 (admin API parity), by operationId. */

const CPF = '11144477735';
const AT = '2026-11-20T15:00:00.000Z';
const CLIENT_ID = '3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24';
const TX = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

/** An account as the issue 30 routes answer it (PATCH, suspend, reactivate). */
const account = (name: string, status: AccountStatus) => ({
  id: 2,
  name,
  document: CPF,
  type: 'INDIVIDUAL',
  pixKey: '123e4567-e12b-42d1-a456-426655440000',
  status,
  createdAt: AT,
  balance: { available: 1520.75, blocked: 89.9 },
  limits: { perTransaction: 5000, daily: 20000, nightly: 1000 },
  fees: { cashIn: { fixed: 0, percent: 0 }, cashOut: { fixed: 0, percent: 0 } },
  splitFrequency: 'DAILY',
});

export const ADMIN_EXAMPLES: Record<string, Examples> = {
  // Issue 30 item 4.
  updateAccount: { request: { name: 'Maria da Silva Comércio' }, responses: { 200: account('Maria da Silva Comércio', 'ACTIVE') } },
  suspendAccount: { responses: { 200: account('Maria da Silva', 'SUSPENDED') } },
  reactivateAccount: { responses: { 200: account('Maria da Silva', 'ACTIVE') } },
  listCertificates: {
    responses: {
      200: {
        data: [
          {
            fingerprint: '4393ba1e67ea61135bb9ea78c51ac350ef70265c8f6de17ba83300be6e52a2cd',
            subject: 'CN=Maria da Silva (account 2), O=pix-account-service',
            notBefore: '2026-11-20T14:59:00.000Z',
            notAfter: '2027-11-20T15:00:00.000Z',
            revoked: false,
            revokedAt: null,
            createdAt: AT,
          },
          {
            fingerprint: '0be9f1a2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e',
            subject: 'CN=Maria da Silva (account 2), O=pix-account-service',
            notBefore: '2025-11-02T12:59:00.000Z',
            notAfter: '2026-11-02T13:00:00.000Z',
            revoked: true,
            revokedAt: '2026-11-19T09:15:00.000Z',
            createdAt: '2025-11-02T13:00:00.000Z',
          },
        ],
        metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
      },
    },
  },
  listAccounts: {
    responses: {
      200: {
        data: [
          {
            id: 2,
            name: 'Maria da Silva',
            document: CPF,
            type: 'INDIVIDUAL',
            pixKey: '123e4567-e12b-42d1-a456-426655440000',
            status: 'ACTIVE',
            createdAt: AT,
            balance: { available: 1520.75, blocked: 89.9 },
          },
        ],
        metadata: { total: 1, page: 1, pageSize: 20, totalPages: 1 },
      },
    },
  },
  listCredentials: {
    responses: {
      200: {
        data: [
          { clientId: CLIENT_ID, scopes: ['pix:read', 'pix:write', 'balance:read', 'webhook:read', 'webhook:write'], status: 'ACTIVE', createdAt: AT, revokedAt: null },
          { clientId: '9a7b5c3d-1e2f-4a6b-8c9d-0e1f2a3b4c5d', scopes: ['balance:read'], status: 'REVOKED', createdAt: '2026-10-02T12:30:00.000Z', revokedAt: '2026-11-19T09:15:00.000Z' },
        ],
        metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
      },
    },
  },
  listMembers: {
    responses: {
      200: {
        data: [
          { id: 4, email: 'ana@padaria.example', status: 'ACTIVE', createdAt: '2026-11-02T13:00:00.000Z' },
          { id: 9, email: 'caixa@padaria.example', status: 'INVITED', createdAt: AT },
        ],
        metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
      },
    },
  },
  listOperators: {
    responses: {
      200: { data: [{ id: 1, email: 'ops@example.com', createdAt: '2026-10-01T12:00:00.000Z' }], metadata: { total: 1, page: 1, pageSize: 20, totalPages: 1 } },
    },
  },
  listWebhookDeliveries: {
    responses: {
      200: {
        data: [
          {
            id: 318,
            kind: 'delivery',
            event: 'cash_in',
            eventId: 'msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60',
            transactionId: TX,
            webhookId: 12,
            url: 'https://example.com/pix/webhooks',
            status: 'failed',
            statusCode: 503,
            durationMs: 184,
            attempt: 2,
            nextAttemptAt: '2026-11-20T15:30:02.000Z',
            error: null,
            responseExcerpt: 'Service Unavailable',
            sentAt: AT,
          },
          {
            id: 301,
            kind: 'delivery',
            event: 'cash_in',
            eventId: 'msg_2f1c0e5a9b7d4c3e8f6a1b2c3d4e5f60',
            transactionId: TX,
            webhookId: 12,
            url: 'https://example.com/pix/webhooks',
            status: 'failed',
            statusCode: null,
            durationMs: 10000,
            attempt: 1,
            nextAttemptAt: null,
            error: 'timed out after 10000 ms',
            responseExcerpt: null,
            sentAt: '2026-11-20T14:59:52.000Z',
          },
        ],
        metadata: { total: 2, page: 1, pageSize: 20, totalPages: 1 },
      },
    },
  },
  rotateWebhookSecret: {
    responses: { 200: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwS4ZG5n1Vw8E=', previousSecretValidUntil: '2026-11-21T15:00:00.000Z' } },
  },
  sendTestWebhook: {
    request: { event: 'cash_in' },
    responses: {
      200: {
        event: 'cash_in',
        eventId: 'msg_test_7c4e2a1b9d8f4e6a8b2c0d1e3f5a7b9c',
        attempts: [
          { webhookLogId: 412, webhookId: 12, url: 'https://example.com/pix/webhooks', statusCode: 200, durationMs: 87, delivered: true, error: null, sentAt: AT },
        ],
      },
    },
  },
  rotateSigningKey: {
    responses: {
      200: { kid: 'nq8KzY1p3fW0b6cR2xT9vJ4mL7hG5dA1sE3uQ8wZ0yI', previousKid: 'AZqrGr7hY1TGwt-VFS504IQYPwc7lkkakj3z1aBcDeF', previousKeyValidUntil: '2026-11-20T15:30:30.000Z' },
    },
  },
};
