/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { maskDocument } from '../../domain/documents.ts';
import { basisPointsFromPercent, percentFromBasisPoints, type Cents } from '../../domain/money.ts';
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import { auditAccountChange } from '../../services/audit/audit-log.ts';
import { actorOf, render, requireOperator, type PortalRoutes } from '../context.ts';
import { brl, centsFromForm, dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';
import { AuditChange } from '../pages/audit-change.tsx';
import { BalanceCards } from '../pages/balance.tsx';
import { integrationPages } from './integration.routes.tsx';

const toForm = (cents: number) => brl(cents).replace('R$ ', '');

export const adminRoutes: PortalRoutes = (app, c) => {
  const pages = integrationPages(c);

  /** The account of an admin URL; only operators reach these pages (members get a 404). */
  async function accountOf(request: FastifyRequest): Promise<AccountRow> {
    requireOperator(request);
    const id = (request.params as { id: string }).id;
    if (!/^\d{1,9}$/.test(id)) throw new DomainError('NOT_FOUND');
    return c.accounts.get(Number(id));
  }

  async function AccountsPage(props: { ctx: PageContext; q: string; error?: string; form?: Record<string, string> }) {
    const { ctx } = props;
    const en = ctx.lang === 'en';
    const rows = await c.reads.searchAccounts(props.q, 50);
    return (
      <Page ctx={ctx} title={ctx.t('accounts')} active="/portal/admin/accounts">
        <h1>{ctx.t('accounts')}</h1>
        <p class="lead">{en ? 'Search by name, id or document; open an account to manage it.' : 'Busque por nome, id ou documento; abra uma conta para gerenciá-la.'}</p>
        <section class="card table-card section">
          <form class="filters" method="get" action="/portal/admin/accounts" role="search">
            <div>
              <label for="q">{en ? 'Search accounts' : 'Buscar contas'}</label>
              <input id="q" name="q" type="search" value={props.q} />
            </div>
            <button class="primary" type="submit">{en ? 'Search' : 'Buscar'}</button>
          </form>
          {rows.length === 0 ? <p class="empty">{en ? 'No account found.' : 'Nenhuma conta encontrada.'}</p> : (
            <table>
              <thead><tr><th scope="col">Id</th><th scope="col">{en ? 'Name' : 'Nome'}</th><th scope="col" class="hide-phone">{ctx.t('document')}</th><th scope="col" class="num">{ctx.t('available')}</th></tr></thead>
              <tbody>
                {rows.map((a) => (
                  <tr>
                    <td>{a.id}</td>
                    <td><a href={`/portal/admin/accounts/${a.id}`}>{a.name}</a></td>
                    <td class="hide-phone mono">{maskDocument(a.document)}</td>
                    <td class="num">{brl(a.available)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card section" style="max-width: 560px" aria-labelledby="new-account">
          <h2 id="new-account">{en ? 'New account' : 'Nova conta'}</h2>
          {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
          <form class="stack" method="post" action="/portal/admin/accounts">
            <CsrfField ctx={ctx} />
            <div><label for="name">{en ? 'Name' : 'Nome'}</label><input id="name" name="name" required maxlength={100} value={props.form?.name ?? ''} /></div>
            <div><label for="document">CPF / CNPJ</label><input id="document" name="document" required maxlength={18} value={props.form?.document ?? ''} /></div>
            <button class="primary" type="submit">{en ? 'Create account' : 'Criar conta'}</button>
          </form>
        </section>
      </Page>
    );
  }

  app.get('/admin/accounts', async (request, reply) => {
    requireOperator(request);
    const q = String((request.query as { q?: string }).q ?? '').slice(0, 100);
    return render(reply, <AccountsPage ctx={request.portal} q={q} />);
  });

  app.post('/admin/accounts', async (request, reply) => {
    requireOperator(request);
    const form = { name: field(request.body, 'name').trim(), document: field(request.body, 'document').replace(/[.\-/\s]/g, '') };
    try {
      const account = await c.accounts.create(form, auditAccountChange(c.audit, actorOf(request), 'account.create'));
      return reply.redirect(`/portal/admin/accounts/${account.id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <AccountsPage ctx={request.portal} q="" error={refused.message} form={form} />, refused.status);
    }
  });

  async function AccountPage(props: { ctx: PageContext; account: AccountRow; notice?: string; error?: string; invitationUrl?: string; extra?: Record<string, unknown>; section?: string }) {
    const { ctx, account: a } = props;
    const en = ctx.lang === 'en';
    const base = `/admin/accounts/${a.id}`;
    const members = await c.portalPeople.members(a.id);
    const extra = props.extra ?? {};
    return (
      <Page ctx={ctx} title={a.name} active="/portal/admin/accounts">
        <div class="page-head">
          <div>
            <h1>{a.name}</h1>
            <p class="lead">#{a.id} · <span class="mono">{maskDocument(a.document)}</span> · {ctx.t('pixKey')} <span class="mono">{a.pix_key}</span></p>
          </div>
        </div>
        {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <BalanceCards ctx={ctx} available={a.available} blocked={a.blocked} />
        <div class="grid-2 section">
          <section class="card" aria-labelledby="limits">
            <h2 id="limits">{en ? 'Cash-out limits' : 'Limites de saída'}</h2>
            <form class="stack" method="post" action={`/portal${base}/limits`}>
              <CsrfField ctx={ctx} />
              <div><label for="perTransaction">{en ? 'Per transaction (R$)' : 'Por transação (R$)'}</label><input id="perTransaction" name="perTransaction" inputmode="decimal" value={toForm(a.limit_per_transaction)} /></div>
              <div><label for="daily">{en ? 'Per day (R$)' : 'Por dia (R$)'}</label><input id="daily" name="daily" inputmode="decimal" value={toForm(a.limit_daily)} /></div>
              <div><label for="nightly">{en ? 'Per night, 20h–6h (R$)' : 'Por noite, 20h–6h (R$)'}</label><input id="nightly" name="nightly" inputmode="decimal" value={toForm(a.limit_nightly)} /></div>
              <button class="primary" type="submit">{en ? 'Save limits' : 'Salvar limites'}</button>
            </form>
          </section>
          <section class="card" aria-labelledby="fees">
            <h2 id="fees">{en ? 'Fees' : 'Tarifas'}</h2>
            <form class="stack" method="post" action={`/portal${base}/fees`}>
              <CsrfField ctx={ctx} />
              <div class="grid-2">
                <div><label for="cashInFixed">{en ? 'Cash-in fixed (R$)' : 'Entrada fixa (R$)'}</label><input id="cashInFixed" name="cashInFixed" inputmode="decimal" value={toForm(a.fee_cash_in_fixed)} /></div>
                <div><label for="cashInPercent">{en ? 'Cash-in %' : 'Entrada %'}</label><input id="cashInPercent" name="cashInPercent" inputmode="decimal" value={String(percentFromBasisPoints(a.fee_cash_in_percent_bp)).replace('.', ',')} /></div>
                <div><label for="cashOutFixed">{en ? 'Cash-out fixed (R$)' : 'Saída fixa (R$)'}</label><input id="cashOutFixed" name="cashOutFixed" inputmode="decimal" value={toForm(a.fee_cash_out_fixed)} /></div>
                <div><label for="cashOutPercent">{en ? 'Cash-out %' : 'Saída %'}</label><input id="cashOutPercent" name="cashOutPercent" inputmode="decimal" value={String(percentFromBasisPoints(a.fee_cash_out_percent_bp)).replace('.', ',')} /></div>
              </div>
              <button class="primary" type="submit">{en ? 'Save fees' : 'Salvar tarifas'}</button>
            </form>
          </section>
        </div>
        <section class="card table-card section" aria-labelledby="members">
          <h2 id="members">{en ? 'Members' : 'Membros'}</h2>
          {props.invitationUrl ? (
            <div style="padding: 0 20px">
              <label for="invitation-url">{en ? 'Invitation link (valid 72 h, works once)' : 'Link do convite (vale 72 h, uma vez)'}</label>
              <div class="copy-row"><input id="invitation-url" class="mono" readonly value={props.invitationUrl} /><button type="button" class="secondary button" data-copy="invitation-url">{en ? 'Copy' : 'Copiar'}</button></div>
            </div>
          ) : null}
          {members.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{ctx.t('email')}</th><th scope="col">{ctx.t('status')}</th><th scope="col"><span class="skip">{en ? 'Actions' : 'Ações'}</span></th></tr></thead>
              <tbody>
                {members.map((m) => (
                  <tr>
                    <td>{m.email}</td>
                    <td>{m.active ? <span class="pill pill-ok">{en ? 'Active' : 'Ativo'}</span> : <span class="pill pill-warn">{en ? 'Invited' : 'Convidado'}</span>}</td>
                    <td>
                      <form method="post" action={`/portal${base}/members/${m.id}/remove`} data-confirm={en ? 'Remove this member?' : 'Remover este membro?'}>
                        <CsrfField ctx={ctx} />
                        <button class="danger" type="submit" aria-label={`${en ? 'Remove' : 'Remover'} ${m.email}`}>{en ? 'Remove' : 'Remover'}</button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form class="filters" method="post" action={`/portal${base}/members`}>
            <CsrfField ctx={ctx} />
            <div><label for="member-email">{en ? 'Invite by email' : 'Convidar por e-mail'}</label><input id="member-email" name="email" type="email" required /></div>
            <button class="primary" type="submit">{en ? 'Invite' : 'Convidar'}</button>
          </form>
        </section>
        <h2 id="webhooks" class="section-title">{ctx.t('webhooks')}</h2>
        <pages.WebhooksSection ctx={ctx} accountId={a.id} base={`/portal${base}`} {...(props.section === 'webhooks' ? extra : {})} />
        <h2 id="credentials" class="section-title">{ctx.t('credentials')}</h2>
        <pages.CredentialsSection ctx={ctx} accountId={a.id} base={`/portal${base}`} {...(props.section === 'credentials' ? extra : {})} />
        <h2 id="certificates" class="section-title">{ctx.t('certificates')}</h2>
        <pages.CertificatesSection ctx={ctx} accountId={a.id} base={`/portal${base}`} {...(props.section === 'certificates' ? extra : {})} />
      </Page>
    );
  }

  const showAccount = async (request: FastifyRequest, reply: FastifyReply, props: Partial<Parameters<typeof AccountPage>[0]> = {}, status = 200) =>
    render(reply, <AccountPage ctx={request.portal} account={await accountOf(request)} {...props} />, status);

  app.get('/admin/accounts/:id', (request, reply) => showAccount(request, reply));
  for (const section of ['webhooks', 'credentials', 'certificates']) {
    app.get(`/admin/accounts/:id/${section}`, async (request, reply) => reply.redirect(`/portal/admin/accounts/${(await accountOf(request)).id}#${section}`, 303));
  }

  app.post('/admin/accounts/:id/limits', async (request, reply) => {
    const account = await accountOf(request);
    const en = request.portal.lang === 'en';
    const limits: Record<string, Cents> = {};
    for (const name of ['perTransaction', 'daily', 'nightly']) {
      const raw = field(request.body, name);
      if (!raw.trim()) continue;
      const value = centsFromForm(raw);
      if (value === undefined) return showAccount(request, reply, { error: `${name} must be an amount in reais with at most 2 decimals` }, 400);
      limits[name] = value as Cents;
    }
    try {
      await c.accounts.setLimits(account.id, limits, auditAccountChange(c.audit, actorOf(request), 'account.limits'));
    } catch (error) {
      return showAccount(request, reply, { error: refusal(error, request.portal.lang).message }, refusal(error, request.portal.lang).status);
    }
    return showAccount(request, reply, { notice: en ? 'Limits saved.' : 'Limites salvos.' });
  });

  app.post('/admin/accounts/:id/fees', async (request, reply) => {
    const account = await accountOf(request);
    const en = request.portal.lang === 'en';
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
    await c.accounts.setFees(account.id, { cashIn, cashOut }, auditAccountChange(c.audit, actorOf(request), 'account.fees'));
    return showAccount(request, reply, { notice: en ? 'Fees saved.' : 'Tarifas salvas.' });
  });

  app.post('/admin/accounts/:id/members', async (request, reply) => {
    const account = await accountOf(request);
    try {
      const invited = await c.portalPeople.inviteMember(actorOf(request), account.id, field(request.body, 'email'));
      return showAccount(request, reply, { invitationUrl: invited.invitationUrl }, 201);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return showAccount(request, reply, { error: refused.message }, refused.status);
    }
  });

  app.post('/admin/accounts/:id/members/:memberId/remove', async (request, reply) => {
    const account = await accountOf(request);
    await c.portalPeople.removeMember(actorOf(request), account.id, Number((request.params as { memberId: string }).memberId));
    return reply.redirect(`/portal/admin/accounts/${account.id}`, 303);
  });

  pages.registerActions(app, '/admin/accounts/:id', async (request) => (await accountOf(request)).id, (request, reply, section, extra, status) =>
    showAccount(request, reply, { section, extra, ...(typeof extra.error === 'string' ? { error: extra.error } : {}) }, status),
  );

  app.get('/admin/audit', async (request, reply) => {
    requireOperator(request);
    const q = request.query as Record<string, string | undefined>;
    const accountId = /^\d{1,9}$/.test(q.account ?? '') ? Number(q.account) : undefined;
    const beforeId = /^\d{1,15}$/.test(q.before ?? '') ? Number(q.before) : undefined;
    const rows = await c.audit.list({
      ...(accountId !== undefined ? { accountId } : {}),
      ...(q.action ? { action: q.action.slice(0, 60) } : {}),
      ...(q.actor ? { actor: q.actor.slice(0, 254) } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
      limit: 50,
    });
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    const next = rows.length === 50 ? new URLSearchParams(Object.entries({ ...q, before: String(rows[rows.length - 1]!.id) }).filter((e): e is [string, string] => Boolean(e[1]))) : undefined;
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t('auditLog')} active="/portal/admin/audit">
        <h1>{ctx.t('auditLog')}</h1>
        <p class="lead">{en ? 'Every change made in the portal or through the admin API: who, what, when, from where.' : 'Toda mudança feita no portal ou pela API administrativa: quem, o quê, quando, de onde.'}</p>
        <section class="card table-card">
          <form class="filters" method="get" action="/portal/admin/audit">
            <div><label for="account">{ctx.t('account')}</label><input id="account" name="account" inputmode="numeric" value={q.account ?? ''} /></div>
            <div><label for="action">{en ? 'Action' : 'Ação'}</label><input id="action" name="action" placeholder="account.limits" value={q.action ?? ''} /></div>
            <div><label for="actor">{en ? 'Who' : 'Quem'}</label><input id="actor" name="actor" placeholder="admin-api, ops@example.com" value={q.actor ?? ''} /></div>
            <button class="primary" type="submit">{ctx.t('filter')}</button>
          </form>
          {rows.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{ctx.t('date')}</th><th scope="col">{en ? 'Who' : 'Quem'}</th><th scope="col">{en ? 'Action' : 'Ação'}</th><th scope="col" class="hide-phone">{ctx.t('account')}</th><th scope="col" class="hide-phone">{en ? 'Address' : 'Endereço'}</th><th scope="col" class="hide-phone">{en ? 'Change' : 'Mudança'}</th></tr></thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <td class="nowrap">{dateTime(r.at, ctx.lang)}</td>
                    <td>{r.actor_email ?? r.actor}</td>
                    <td class="mono action">{r.action.split('.').map((part, i) => (i === 0 ? part : <><wbr />.{part}</>))}</td>
                    <td class="hide-phone">{r.account_id ? <a href={`/portal/admin/accounts/${r.account_id}`}>#{r.account_id}</a> : '—'}</td>
                    <td class="hide-phone mono nowrap">{r.address ?? '—'}</td>
                    <td class="hide-phone" style="max-width: 380px"><AuditChange before={r.before} after={r.after} unchanged={en ? 'no change' : 'sem mudança'} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {next ? <nav class="pager" aria-label={en ? 'Older entries' : 'Entradas anteriores'}><span></span><a href={`/portal/admin/audit?${next}`} rel="next">{ctx.t('next')}</a></nav> : null}
        </section>
      </Page>,
    );
  });

  /** The System page; `problem` is a refused "add operator" form, shown next to it. */
  async function showSystem(request: FastifyRequest, reply: FastifyReply, problem?: { status: number; message: string; email: string }) {
    requireOperator(request);
    const [jobs, failedDeliveries, operators] = await Promise.all([c.reads.jobSummary(), c.reads.failingDeliveries(25), c.portalPeople.operators()]);
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t('system')} active="/portal/admin/system">
        <h1>{ctx.t('system')}</h1>
        <section class="cards" aria-label={en ? 'Jobs' : 'Tarefas'}>
          <div class="card"><div class="stat-label">{en ? 'Jobs waiting' : 'Tarefas aguardando'}</div><div class="stat-value">{jobs.pending}</div></div>
          <div class="card"><div class="stat-label">{en ? 'Jobs failed' : 'Tarefas com falha'}</div><div class="stat-value">{jobs.failed}</div></div>
          <div class="card"><div class="stat-label">{en ? 'Deliveries failing' : 'Entregas falhando'}</div><div class="stat-value">{failedDeliveries.total}</div></div>
        </section>
        <section class="card table-card section" aria-labelledby="failing-jobs">
          <h2 id="failing-jobs">{en ? 'Failed jobs' : 'Tarefas com falha'}</h2>
          {jobs.failedRows.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{en ? 'Kind' : 'Tipo'}</th><th scope="col">{en ? 'Attempts' : 'Tentativas'}</th><th scope="col">{en ? 'Last error' : 'Último erro'}</th><th scope="col">{ctx.t('date')}</th></tr></thead>
              <tbody>{jobs.failedRows.map((j) => <tr><td class="mono">{j.kind}</td><td>{j.attempts}</td><td>{j.last_error ?? '—'}</td><td>{dateTime(j.updated_at, ctx.lang)}</td></tr>)}</tbody>
            </table>
          )}
        </section>
        <section class="card table-card section" aria-labelledby="failing-deliveries">
          <h2 id="failing-deliveries">{en ? 'Webhook deliveries failing' : 'Entregas de webhook falhando'}</h2>
          {failedDeliveries.rows.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{ctx.t('account')}</th><th scope="col">URL</th><th scope="col">HTTP</th><th scope="col">{en ? 'Attempts' : 'Tentativas'}</th><th scope="col">{en ? 'Next retry' : 'Próxima tentativa'}</th></tr></thead>
              <tbody>
                {failedDeliveries.rows.map((d) => (
                  <tr>
                    <td><a href={`/portal/admin/accounts/${d.account_id}`}>#{d.account_id}</a></td>
                    <td class="mono">{d.url}</td>
                    <td>{d.last_status_code ?? d.last_error?.slice(0, 40) ?? '—'}</td>
                    <td>{d.attempts}</td>
                    <td>{d.status === 'pending' ? dateTime(d.next_attempt_at, ctx.lang) : en ? 'gave up' : 'desistiu'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card section" style="max-width: 560px" aria-labelledby="operators">
          <h2 id="operators">{en ? 'Operators' : 'Operadores'}</h2>
          <ul>{operators.map((o) => <li>{o.email}</li>)}</ul>
          {problem ? <div class="alert alert-error" role="alert">{problem.message}</div> : null}
          <form class="stack" method="post" action="/portal/admin/operators">
            <CsrfField ctx={ctx} />
            <div><label for="op-email">{ctx.t('email')}</label><input id="op-email" name="email" type="email" required value={problem?.email ?? ''} /></div>
            <div><label for="op-password">{ctx.t('password')}</label><input id="op-password" name="password" type="password" minlength={12} required autocomplete="new-password" /></div>
            <button class="primary" type="submit">{en ? 'Add operator' : 'Adicionar operador'}</button>
          </form>
        </section>
      </Page>,
      problem?.status ?? 200,
    );
  }

  app.get('/admin/system', (request, reply) => showSystem(request, reply));

  app.post('/admin/operators', async (request, reply) => {
    requireOperator(request);
    const email = field(request.body, 'email');
    try {
      await c.portalPeople.createOperator(actorOf(request), { email, password: field(request.body, 'password') });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return showSystem(request, reply, { ...refused, email });
    }
    return reply.redirect('/portal/admin/system', 303);
  });
};
