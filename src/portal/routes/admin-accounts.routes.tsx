/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { basisPointsFromPercent, type Cents } from '../../domain/money.ts';
import { auditAccountChange } from '../../services/audit/audit-log.ts';
import { actorOf, render, requireOperator, type PortalRoutes } from '../context.ts';
import { centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { AccountPage } from '../pages/admin-account.tsx';
import { AccountsPage } from '../pages/admin-accounts.tsx';
import { registerIntegrationActions } from './integration-actions.ts';
import { IntegrationSection, SECTIONS, type Section } from './integration-sections.tsx';

interface ShownResult {
  notice?: string;
  error?: string;
  invitationUrl?: string;
  section?: Section;
  extra?: Record<string, unknown>;
}

/** The operators' accounts: list, search, create, and one account's settings, members and integration. */
export const adminAccountsRoutes: PortalRoutes = (app, s) => {
  /** The account of an admin URL; only operators reach these pages (members get a 404). */
  async function accountOf(request: FastifyRequest): Promise<AccountRow> {
    requireOperator(request);
    const id = (request.params as { id: string }).id;
    if (!/^\d{1,9}$/.test(id)) throw new DomainError('NOT_FOUND');
    return s.accounts.get(Number(id));
  }

  app.get('/admin/accounts', async (request, reply) => {
    requireOperator(request);
    const q = String((request.query as { q?: string }).q ?? '').slice(0, 100);
    return render(reply, <AccountsPage ctx={request.portal} q={q} rows={await s.reads.searchAccounts(q, 50)} />);
  });

  app.post('/admin/accounts', async (request, reply) => {
    requireOperator(request);
    const form = { name: field(request.body, 'name').trim(), document: field(request.body, 'document').replace(/[.\-/\s]/g, '') };
    try {
      const account = await s.accounts.create(form, auditAccountChange(s.audit, actorOf(request), 'account.create'));
      return reply.redirect(`/portal/admin/accounts/${account.id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <AccountsPage ctx={request.portal} q="" rows={await s.reads.searchAccounts('', 50)} error={refused.message} form={form} />, refused.status);
    }
  });


  /** The account page, with a form's result: a notice, an error, an invitation link, or a section's `extra`. */
  const showAccount = async (request: FastifyRequest, reply: FastifyReply, props: ShownResult = {}, status = 200) => {
    const account = await accountOf(request);
    const ctx = request.portal;
    const members = await s.portalPeople.members(account.id);
    const { section, extra, ...shown } = props;
    return render(
      reply,
      <AccountPage ctx={ctx} account={account} members={members} {...shown}>
        {SECTIONS.map((each) => (
          <>
            <h2 id={each} class="section-title">{ctx.t(each)}</h2>
            <IntegrationSection s={s} ctx={ctx} accountId={account.id} base={`/portal/admin/accounts/${account.id}`} section={each} extra={section === each ? extra : {}} />
          </>
        ))}
      </AccountPage>,
      status,
    );
  };

  app.get('/admin/accounts/:id', (request, reply) => showAccount(request, reply));
  for (const section of ['webhooks', 'credentials', 'certificates']) {
    app.get(`/admin/accounts/:id/${section}`, async (request, reply) => reply.redirect(`/portal/admin/accounts/${(await accountOf(request)).id}#${section}`, 303));
  }

  app.post('/admin/accounts/:id/limits', async (request, reply) => {
    const account = await accountOf(request);
    const limits: Record<string, Cents> = {};
    for (const name of ['perTransaction', 'daily', 'nightly']) {
      const raw = field(request.body, name);
      if (!raw.trim()) continue;
      const value = centsFromForm(raw);
      if (value === undefined) return showAccount(request, reply, { error: `${name} must be an amount in reais with at most 2 decimals` }, 400);
      limits[name] = value as Cents;
    }
    try {
      await s.accounts.setLimits(account.id, limits, auditAccountChange(s.audit, actorOf(request), 'account.limits'));
    } catch (error) {
      return showAccount(request, reply, { error: refusal(error, request.portal.lang).message }, refusal(error, request.portal.lang).status);
    }
    return showAccount(request, reply, { notice: request.portal.t('limitsSaved') });
  });

  app.post('/admin/accounts/:id/fees', async (request, reply) => {
    const account = await accountOf(request);
    const fee = (fixedName: string, percentName: string) => {
      const fixed = centsFromForm(field(request.body, fixedName));
      const percentText = field(request.body, percentName).trim().replace(',', '.');
      const percentBp = /^\d{1,3}(\.\d{1,2})?$/.test(percentText) ? basisPointsFromPercent(Number(percentText)) : undefined;
      if (fixed === undefined) return `${fixedName} must be an amount in reais with at most 2 decimals`;
      if (percentBp === undefined) return `${percentName} must be a percentage between 0 and 100 with at most 2 decimals`;
      return { fixed: fixed as Cents, percentBp };
    };
    const cashIn = fee('cashInFixed', 'cashInPercent');
    const cashOut = fee('cashOutFixed', 'cashOutPercent');
    if (typeof cashIn === 'string' || typeof cashOut === 'string') return showAccount(request, reply, { error: [cashIn, cashOut].filter((x) => typeof x === 'string').join('; ') }, 400);
    await s.accounts.setFees(account.id, { cashIn, cashOut }, auditAccountChange(s.audit, actorOf(request), 'account.fees'));
    return showAccount(request, reply, { notice: request.portal.t('feesSaved') });
  });

  app.post('/admin/accounts/:id/members', async (request, reply) => {
    const account = await accountOf(request);
    try {
      const invited = await s.portalPeople.inviteMember(actorOf(request), account.id, field(request.body, 'email'));
      return showAccount(request, reply, { invitationUrl: invited.invitationUrl }, 201);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return showAccount(request, reply, { error: refused.message }, refused.status);
    }
  });

  app.post('/admin/accounts/:id/members/:memberId/remove', async (request, reply) => {
    const account = await accountOf(request);
    await s.portalPeople.removeMember(actorOf(request), account.id, Number((request.params as { memberId: string }).memberId));
    return reply.redirect(`/portal/admin/accounts/${account.id}`, 303);
  });

  registerIntegrationActions(app, s, '/admin/accounts/:id', async (request) => (await accountOf(request)).id, (request, reply, section, extra, status) =>
    showAccount(request, reply, { section, extra, ...(typeof extra.error === 'string' ? { error: extra.error } : {}) }, status),
  );

};
