import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { CashOutResponse } from './create-cash-out.route.ts';
import { Document, ScenarioHeaders } from '../../schemas/common.ts';

const CashOutQrCodeRequest = Type.Object({
  value: Type.Number({ format: 'money', minimum: 0.01, description: 'BRL; must equal the amount embedded in the QR code when present' }),
  qrCode: Type.String({ minLength: 50, maxLength: 500, pattern: '^000201', description: 'EMV PIX copy-and-paste string' }),
  externalId: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  document: Type.Optional(Document()),
});

export const createCashOutQrCodeRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/pix/cash-out-qrcode',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['payouts'],
        summary: 'Pay a PIX QR code (static: its key; dynamic: its charge)',
        security: [{ bearer: [] }],
        headers: ScenarioHeaders,
        body: CashOutQrCodeRequest,
        response: { 201: CashOutResponse },
      },
    },
    async (request, reply) => {
      const scenario = c.payouts.scenarios(request.headers['x-sandbox-scenario'], 'cash_out_qrcode');
      const body = request.body;
      const tx = await c.payouts.cashOutQrCode.create({
        accountId: accountIdOf(request),
        amount: toCents(body.value, 'value'),
        qrCode: body.qrCode,
        externalId: body.externalId,
        description: body.description ?? null,
        name: body.name ?? null,
        document: body.document ?? null,
        scenario,
      });
      return reply.code(201).send({
        transactionId: tx.transaction_id,
        externalId: tx.external_id!,
        status: tx.status,
        generateTime: tx.created_at.toISOString(),
      });
    },
  );
