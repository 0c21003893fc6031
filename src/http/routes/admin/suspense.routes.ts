import { Type, type Static } from '@sinclair/typebox';
import { maskDocument } from '../../../domain/documents.ts';
import { toBrlNumber } from '../../../domain/money.ts';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { SuspenseItem } from '../../../services/suspense/suspense.service.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { Brl, NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';

const At = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const SuspenseItemView = Type.Object({
  id: Type.Integer(),
  status: Type.Union([Type.Literal('OPEN'), Type.Literal('ASSIGNED')]),
  amount: Brl({ description: 'BRL' }),
  endToEndId: Type.String(),
  payer: Type.Object({ name: Type.String(), document: Type.Union([Type.String({ description: 'masked' }), Type.Null()]), ispb: Type.String() }),
  reason: Type.String({ description: 'no_charge, charge_not_payable, charge_amount_mismatch, charge_never_stored' }),
  chargeReference: Type.Union([Type.String(), Type.Null()]),
  providerTransactionId: Type.Union([Type.String(), Type.Null()]),
  receivedAt: Type.String({ format: 'date-time' }),
  assignedAccountId: Type.Union([Type.Integer(), Type.Null()]),
  assignedTransactionId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  assignedAt: At,
});

export function suspenseItemView(item: SuspenseItem, assignedTransactionId: string | null = null): Static<typeof SuspenseItemView> {
  return {
    id: Number(item.id),
    status: item.assigned_at ? 'ASSIGNED' : 'OPEN',
    amount: toBrlNumber(item.amount),
    endToEndId: item.end_to_end_id,
    payer: { name: item.payer.name, document: item.payer.document ? maskDocument(item.payer.document) : null, ispb: item.payer.ispb },
    reason: item.reason,
    chargeReference: item.charge_reference,
    providerTransactionId: item.provider_transaction_id,
    receivedAt: item.received_at.toISOString(),
    assignedAccountId: item.assigned_account_id === null ? null : Number(item.assigned_account_id),
    assignedTransactionId,
    assignedAt: item.assigned_at ? item.assigned_at.toISOString() : null,
  };
}

/** GET /admin/network/suspense: money on the pooled account that named no charge we could credit. */
export const listSuspenseRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/network/suspense',
    {
      schema: {
        tags: ['admin'],
        summary: 'Money received on the pooled account that names no charge of ours, waiting for an operator (newest first)',
        querystring: Type.Object({
          status: Type.Optional(Type.Union([Type.Literal('OPEN'), Type.Literal('ASSIGNED')], { description: 'default: every item' })),
          page: PageQuery.page,
          // No schema default here: `size` (the former name, kept) applies when pageSize is absent.
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'items per page, 1-100 (default 20)' })),
          size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'the former name of pageSize (kept)' })),
        }),
        // Paged like every admin list ({data, metadata}); total, page and size stay for older scripts.
        response: { 200: Type.Composite([PageOf(SuspenseItemView), Type.Object({ total: Type.Integer(), page: Type.Integer(), size: Type.Integer() })]) },
      },
    },
    async (request) => {
      const asked = pageAsked({ page: request.query.page, pageSize: request.query.pageSize ?? request.query.size });
      const { items, total } = await c.suspense.list({ ...(request.query.status ? { status: request.query.status } : {}), page: asked.page, size: asked.pageSize });
      const data = items.map((i) => suspenseItemView(i, i.assigned_transaction_uuid));
      return { ...pageView(data, total, asked), total, page: asked.page, size: asked.pageSize };
    },
  );

/** POST /admin/network/suspense/{id}/assign {accountId}: credits the money to that account, once. */
export const assignSuspenseRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/network/suspense/:id/assign',
    {
      schema: {
        tags: ['admin'],
        summary: 'Assigns money held in suspense to an account: a received PIX ("Pix in", cash_in webhook); 409 when already assigned',
        params: Type.Object({ id: NumericId }),
        body: Type.Object({ accountId: Type.Integer({ minimum: 1, description: 'the account to credit' }) }),
        response: { 200: SuspenseItemView },
      },
    },
    async (request) => {
      const { item, tx } = await c.suspense.assign(Number(request.params.id), request.body.accountId, recordAs(c.audit, adminTokenActor(request.ip), 'suspense.assign'));
      return suspenseItemView(item, tx.transaction_id);
    },
  );
