import { Type } from '@sinclair/typebox';
import QRCode from 'qrcode';
import type { StoredSplit } from '../../../db/schema/charges.ts';
import { DEFAULT_EXPIRATION_S, MAX_EXPIRATION_S, MIN_EXPIRATION_S } from '../../../services/charges/charge-model.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { toPartsPerMillion, toCents } from '../../money-edge.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Amount, Document, ScenarioHeaders } from '../../schemas/common.ts';
import { SPLIT_KEY_TYPES } from '../../../domain/closed-lists.ts';
import { MAX_AMOUNT_BRL } from '../../../domain/money.ts';

const Split = Type.Object({
  pixKey: Type.String({ minLength: 1, maxLength: 255 }),
  pixKeyType: Type.Union(SPLIT_KEY_TYPES.map((v) => Type.Literal(v))),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  document: Document(),
  type: Type.Union([Type.Literal('FIXED'), Type.Literal('PERCENTAGE')]),
  value: Type.Number({ minimum: 0.01, maximum: MAX_AMOUNT_BRL, description: 'FIXED: BRL with at most 2 decimals; PERCENTAGE: percent of the gross amount (10 = 10%), at most 100, with at most 4 decimals' }),
  immediate: Type.Optional(Type.Boolean({ default: false })),
}, { 'x-pix-key': { key: 'pixKey', type: 'pixKeyType', family: 'split' } });

const Body = Type.Object({
  transaction: Type.Object({
    value: Amount(),
    description: Type.String({ minLength: 1, maxLength: 140 }),
    externalId: Type.String({ minLength: 1, maxLength: 255 }),
    expirationTime: Type.Optional(Type.Integer({ minimum: MIN_EXPIRATION_S, maximum: MAX_EXPIRATION_S, description: `seconds, default ${DEFAULT_EXPIRATION_S}` })),
    generateQrCode: Type.Optional(Type.Boolean()),
  }),
  payer: Type.Object({
    fullName: Type.String({ minLength: 1, maxLength: 100 }),
    document: Document(),
  }),
  additionalInfo: Type.Optional(Type.Record(Type.String(), Type.String(), { maxProperties: 10 })),
  splits: Type.Optional(Type.Array(Split, { maxItems: 10 })),
});

const Created = Type.Object({
  transactionId: Type.String({ format: 'uuid-v4' }),
  correlationId: Type.String({ format: 'uuid' }),
  externalId: Type.String(),
  status: Type.Literal('PENDING'),
  pixCode: Type.String(),
  generateTime: Type.String({ format: 'date-time' }),
  expirationDate: Type.String({ format: 'date-time' }),
  qrCodeImage: Type.Optional(Type.String({ description: 'PNG data URL (data:image/png;base64,...)' })),
});

function toSplits(splits: typeof Split.static[] | undefined): StoredSplit[] {
  return (splits ?? []).map((s, i) => ({
    pixKey: s.pixKey,
    pixKeyType: s.pixKeyType,
    name: s.name,
    document: s.document,
    type: s.type,
    value: s.type === 'FIXED' ? toCents(s.value, `splits[${i}].value`) : toPartsPerMillion(s.value, `splits[${i}].value`),
    immediate: s.immediate ?? false,
  }));
}

/** POST /api/pix/cash-in: a dynamic-QR charge, PENDING until paid or expired. */
export const createCashInRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/pix/cash-in',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['pix'],
        summary: 'Create a receiving charge (dynamic BR Code)',
        security: [{ bearer: [] }],
        headers: ScenarioHeaders,
        body: Body,
        response: { 201: Created },
      },
    },
    async (request, reply) => {
      const { transaction, payer, additionalInfo, splits } = request.body;
      const { tx, charge } = await c.charges.createCashIn(
        accountIdOf(request),
        {
          amount: toCents(transaction.value, 'transaction.value'),
          description: transaction.description,
          externalId: transaction.externalId,
          expirationTime: transaction.expirationTime ?? DEFAULT_EXPIRATION_S,
          payer,
          ...(additionalInfo ? { additionalInfo } : {}),
          splits: toSplits(splits),
        },
        request.headers['x-sandbox-scenario'],
      );
      return reply.code(201).send({
        transactionId: tx.transaction_id,
        correlationId: charge.correlation_id,
        externalId: transaction.externalId,
        status: 'PENDING' as const,
        pixCode: charge.br_code,
        generateTime: tx.created_at.toISOString(),
        expirationDate: charge.expires_at.toISOString(),
        ...(transaction.generateQrCode ? { qrCodeImage: await QRCode.toDataURL(charge.br_code, { type: 'image/png', errorCorrectionLevel: 'M' }) } : {}),
      });
    },
  );
