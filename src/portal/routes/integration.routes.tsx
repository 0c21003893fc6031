/** @jsxImportSource hono/jsx */
import type { FastifyRequest } from 'fastify';
import type { PortalServices } from '../portal-services.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import type { EventType } from '../../db/schema.ts';
import type { WebhookHeader } from '../../db/schema/webhooks.ts';
import { recordAs } from '../../services/audit/audit-log.ts';
import type { TestAttempt } from '../../services/webhooks/test-delivery.service.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { dateTime } from '../format.ts';
import { field, refusal, uploadedText } from '../forms.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';

const EVENTS: EventType[] = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'];

/**
 * The account's integration settings, shared by the member dashboard (their own account) and the
 * admin panel (any account): webhooks, credentials, certificates. `base` is where the forms post.
 */
export function integrationPages(c: PortalServices) {
  async function WebhooksSection(props: {
    ctx: PageContext;
    accountId: number;
    base: string;
    secret?: string;
    error?: string;
    /** After a rotation: until when the previous secret still signs (null: there was none). */
    rotatedUntil?: Date | null;
    tested?: { event: EventType; attempts: TestAttempt[] };
    testError?: string;
  }) {
    const { ctx } = props;
    const en = ctx.lang === 'en';
    const hooks = await c.webhooks.list(props.accountId);
    return (
      <>
        <section class="card section" aria-labelledby="new-webhook">
          <h2 id="new-webhook">{en ? 'Add a URL' : 'Adicionar URL'}</h2>
          <p class="hint">{en ? 'Up to 3 URLs per event. Custom headers: one "Name: value" per line.' : 'Até 3 URLs por evento. Cabeçalhos: um "Nome: valor" por linha.'}</p>
          {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
          <form class="stack" method="post" action={`${props.base}/webhooks`}>
            <CsrfField ctx={ctx} />
            <div class="grid-2">
              <div>
                <label for="eventType">{en ? 'Event' : 'Evento'}</label>
                <select id="eventType" name="eventType">{EVENTS.map((e) => <option value={e}>{e}</option>)}</select>
              </div>
              <div>
                <label for="url">URL</label>
                <input id="url" name="url" type="url" required placeholder="https://example.com/pix" />
              </div>
            </div>
            <div>
              <label for="headers">{en ? 'Custom headers' : 'Cabeçalhos personalizados'}</label>
              <textarea id="headers" name="headers" rows={2} style="min-height: 60px" placeholder="Authorization: Bearer ..."></textarea>
            </div>
            <button class="primary" type="submit">{en ? 'Add URL' : 'Adicionar URL'}</button>
          </form>
        </section>
        <section class="card table-card section" aria-labelledby="webhook-list">
          <h2 id="webhook-list">{en ? 'Registered URLs' : 'URLs registradas'}</h2>
          {hooks.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{en ? 'Event' : 'Evento'}</th><th scope="col">URL</th><th scope="col" class="hide-phone">{en ? 'Headers' : 'Cabeçalhos'}</th><th scope="col"><span class="skip">{en ? 'Actions' : 'Ações'}</span></th></tr></thead>
              <tbody>
                {hooks.map((w) => (
                  <tr>
                    <td>{w.event_type}</td>
                    <td class="mono">{w.url}</td>
                    <td class="hide-phone mono">{(w.headers as WebhookHeader[]).map((h) => h.key).join(', ') || '—'}</td>
                    <td>
                      <form method="post" action={`${props.base}/webhooks/${w.id}/remove`} data-confirm={en ? 'Remove this URL?' : 'Remover esta URL?'}>
                        <CsrfField ctx={ctx} />
                        <button class="danger" type="submit" aria-label={`${en ? 'Remove' : 'Remover'} ${w.url} (${w.event_type})`}>{en ? 'Remove' : 'Remover'}</button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card section" aria-labelledby="secret">
          <h2 id="secret">{en ? 'Signing secret' : 'Segredo de assinatura'}</h2>
          <p class="hint">{en ? 'Every delivery is signed (Standard Webhooks) with this secret.' : 'Toda entrega é assinada (Standard Webhooks) com este segredo.'}</p>
          {props.rotatedUntil !== undefined ? (
            <div class="alert alert-info" role="status" id="rotated">
              {props.rotatedUntil
                ? en
                  ? `New secret made. Until ${dateTime(props.rotatedUntil, ctx.lang)} every delivery is signed with both the previous secret and this one; after that, with this one only. Update your receivers now.`
                  : `Novo segredo criado. Até ${dateTime(props.rotatedUntil, ctx.lang)} cada entrega é assinada com o segredo anterior e com este; depois, só com este. Atualize seus receptores agora.`
                : en
                  ? 'New secret made.'
                  : 'Novo segredo criado.'}
            </div>
          ) : null}
          {props.secret ? (
            <div class="copy-row">
              <input id="webhook-secret" class="mono" readonly value={props.secret} aria-label={en ? 'Signing secret' : 'Segredo de assinatura'} />
              <button type="button" class="secondary button" data-copy="webhook-secret">{en ? 'Copy' : 'Copiar'}</button>
            </div>
          ) : (
            <form method="post" action={`${props.base}/webhooks/secret`}>
              <CsrfField ctx={ctx} />
              <button class="secondary button" type="submit">{en ? 'Reveal secret' : 'Mostrar segredo'}</button>
            </form>
          )}
          <form method="post" action={`${props.base}/webhooks/secret/rotate`} style="margin-top: 12px" data-confirm={en ? 'Make a new signing secret? The current one keeps signing for a while beside it.' : 'Criar um novo segredo? O atual continua assinando por um tempo junto com ele.'}>
            <CsrfField ctx={ctx} />
            <p class="hint">{en ? 'Rotating makes a new secret; the current one keeps signing beside it for a while, so your receivers can switch without missing a delivery.' : 'Trocar cria um novo segredo; o atual continua assinando junto por um tempo, para seus receptores mudarem sem perder entregas.'}</p>
            <button class="secondary button" type="submit">{en ? 'Rotate secret' : 'Trocar segredo'}</button>
          </form>
        </section>
        <section class="card section" aria-labelledby="test-event">
          <h2 id="test-event">{en ? 'Send a test event' : 'Enviar evento de teste'}</h2>
          <p class="hint">{en ? "A sample of the event, signed like a real delivery (metadata.test: true), sent once to each of the event's URLs." : 'Um exemplo do evento, assinado como uma entrega real (metadata.test: true), enviado uma vez para cada URL do evento.'}</p>
          {props.testError ? <div class="alert alert-error" role="alert">{props.testError}</div> : null}
          <form class="stack" method="post" action={`${props.base}/webhooks/test`}>
            <CsrfField ctx={ctx} />
            <div>
              <label for="test-event-type">{en ? 'Event to test' : 'Evento a testar'}</label>
              <select id="test-event-type" name="event">{EVENTS.map((e) => <option value={e} selected={props.tested?.event === e}>{e}</option>)}</select>
            </div>
            <button class="primary" type="submit">{en ? 'Send test event' : 'Enviar evento de teste'}</button>
          </form>
          {props.tested ? (
            <table aria-label={en ? 'Test event result' : 'Resultado do evento de teste'} id="test-result">
              <thead><tr><th scope="col">URL</th><th scope="col">HTTP</th><th scope="col" class="num">{en ? 'Duration' : 'Duração'}</th></tr></thead>
              <tbody>
                {props.tested.attempts.map((a) => (
                  <tr>
                    <td class="mono">{a.url}</td>
                    <td><span class={`pill ${a.delivered ? 'pill-ok' : 'pill-bad'}`}>{a.statusCode ?? (a.error ? a.error.slice(0, 40) : '—')}</span></td>
                    <td class="num">{`${a.durationMs} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      </>
    );
  }

  async function CredentialsSection(props: { ctx: PageContext; accountId: number; base: string; created?: { clientId: string; clientSecret: string } }) {
    const { ctx } = props;
    const en = ctx.lang === 'en';
    const rows = await c.credentials.list(props.accountId);
    return (
      <>
        {props.created ? (
          <section class="card section alert-info" aria-labelledby="created-credential">
            <h2 id="created-credential">{en ? 'New credential: copy the secret now' : 'Nova credencial: copie o segredo agora'}</h2>
            <p class="hint">{en ? 'The secret is shown only once. We keep only its hash.' : 'O segredo aparece só uma vez. Guardamos apenas o hash.'}</p>
            <label for="client-id">clientId</label>
            <div class="copy-row"><input id="client-id" class="mono" readonly value={props.created.clientId} /><button type="button" class="secondary button" data-copy="client-id">{en ? 'Copy' : 'Copiar'}</button></div>
            <label for="client-secret" style="margin-top: 10px">clientSecret</label>
            <div class="copy-row"><input id="client-secret" class="mono" readonly value={props.created.clientSecret} /><button type="button" class="secondary button" data-copy="client-secret">{en ? 'Copy' : 'Copiar'}</button></div>
          </section>
        ) : null}
        <section class="card table-card section" aria-labelledby="credential-list">
          <div class="page-head" style="padding: 16px 20px 0; margin: 0">
            <h2 id="credential-list">{en ? 'Client credentials' : 'Credenciais de cliente'}</h2>
            <form method="post" action={`${props.base}/credentials`}>
              <CsrfField ctx={ctx} />
              <button class="primary" type="submit">{en ? 'Create credential' : 'Criar credencial'}</button>
            </form>
          </div>
          {rows.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">clientId</th><th scope="col" class="hide-phone">{en ? 'Scopes' : 'Escopos'}</th><th scope="col">{ctx.t('createdAt')}</th><th scope="col">{ctx.t('status')}</th><th scope="col"><span class="skip">{en ? 'Actions' : 'Ações'}</span></th></tr></thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <td class="mono">{r.client_id}</td>
                    <td class="hide-phone">{r.scopes}</td>
                    <td>{dateTime(r.created_at, ctx.lang)}</td>
                    <td>{r.revoked_at ? <span class="pill pill-muted">{en ? 'Revoked' : 'Revogada'}</span> : <span class="pill pill-ok">{en ? 'Active' : 'Ativa'}</span>}</td>
                    <td>
                      {r.revoked_at ? null : (
                        <form method="post" action={`${props.base}/credentials/${r.client_id}/revoke`} data-confirm={en ? 'Revoke this credential?' : 'Revogar esta credencial?'}>
                          <CsrfField ctx={ctx} />
                          <button class="danger" type="submit" aria-label={`${en ? 'Revoke' : 'Revogar'} ${r.client_id}`}>{en ? 'Revoke' : 'Revogar'}</button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </>
    );
  }

  async function CertificatesSection(props: { ctx: PageContext; accountId: number; base: string; made?: { certificatePem: string; privateKeyPem?: string }; error?: string }) {
    const { ctx } = props;
    const en = ctx.lang === 'en';
    const rows = await c.certificates.list(props.accountId);
    return (
      <>
        {props.made ? (
          <section class="card section alert-info" aria-labelledby="made-cert">
            <h2 id="made-cert">{props.made.privateKeyPem ? (en ? 'Your new key and certificate' : 'Sua nova chave e certificado') : (en ? 'Your request was signed' : 'Seu pedido foi assinado')}</h2>
            {props.made.privateKeyPem ? <p class="hint">{en ? 'Download the private key now: it is not kept here.' : 'Baixe a chave privada agora: ela não fica guardada aqui.'}</p> : null}
            <p>
              <a class="button" download="client-cert.pem" href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(props.made.certificatePem)}`}>{en ? 'Download certificate' : 'Baixar certificado'}</a>{' '}
              {props.made.privateKeyPem ? (
                <a class="button" download="client-key.pem" href={`data:application/x-pem-file;charset=utf-8,${encodeURIComponent(props.made.privateKeyPem)}`}>{en ? 'Download private key' : 'Baixar chave privada'}</a>
              ) : null}
            </p>
          </section>
        ) : null}
        <div class="grid-2 section">
          <section class="card" aria-labelledby="upload-cert">
            <h2 id="upload-cert">{en ? 'Register a certificate' : 'Registrar um certificado'}</h2>
            {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
            <form class="stack" method="post" action={`${props.base}/certificates`} enctype="multipart/form-data">
              <CsrfField ctx={ctx} />
              <div>
                <label for="pem">{en ? 'Certificate or certificate request (PEM)' : 'Certificado ou pedido de certificado (PEM)'}</label>
                <textarea id="pem" name="pem" placeholder="-----BEGIN CERTIFICATE-----" aria-describedby="pem-hint"></textarea>
                <p class="hint" id="pem-hint">{en ? 'Paste a certificate to register it, or a CSR (BEGIN CERTIFICATE REQUEST) for our CA to sign.' : 'Cole um certificado para registrá-lo, ou um CSR (BEGIN CERTIFICATE REQUEST) para nossa AC assinar.'}</p>
              </div>
              <div>
                <label for="pemFile">{en ? 'Or upload a PEM file' : 'Ou envie um arquivo PEM'}</label>
                <input id="pemFile" name="pemFile" type="file" accept=".pem,.crt,.cer,.csr,.req,application/x-pem-file" />
              </div>
              <button class="primary" type="submit">{en ? 'Register' : 'Registrar'}</button>
            </form>
          </section>
          <section class="card" aria-labelledby="make-cert">
            <h2 id="make-cert">{en ? 'Have one made for you' : 'Gerar um para você'}</h2>
            <p class="hint">{en ? 'We make a key pair and a one-year client certificate; you download both once.' : 'Geramos um par de chaves e um certificado de cliente válido por um ano; você baixa os dois uma vez.'}</p>
            <form method="post" action={`${props.base}/certificates/make`}>
              <CsrfField ctx={ctx} />
              <button class="secondary button" type="submit">{en ? 'Make key and certificate' : 'Gerar chave e certificado'}</button>
            </form>
          </section>
        </div>
        <section class="card table-card section" aria-labelledby="cert-list">
          <h2 id="cert-list">{en ? 'Certificates' : 'Certificados'}</h2>
          {rows.length === 0 ? <p class="empty">{ctx.t('noneYet')}</p> : (
            <table>
              <thead><tr><th scope="col">{en ? 'Fingerprint (SHA-256)' : 'Impressão digital (SHA-256)'}</th><th scope="col" class="hide-phone">{en ? 'Subject' : 'Titular'}</th><th scope="col">{en ? 'Valid until' : 'Válido até'}</th><th scope="col">{ctx.t('status')}</th><th scope="col"><span class="skip">{en ? 'Actions' : 'Ações'}</span></th></tr></thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <td class="mono">{r.fingerprint}</td>
                    <td class="hide-phone">{r.subject}</td>
                    <td>{dateTime(r.not_after, ctx.lang)}</td>
                    <td>{r.revoked_at ? <span class="pill pill-muted">{en ? 'Revoked' : 'Revogado'}</span> : r.not_after < c.clock.now() ? <span class="pill pill-bad">{en ? 'Expired' : 'Expirado'}</span> : <span class="pill pill-ok">{en ? 'Active' : 'Ativo'}</span>}</td>
                    <td>
                      {r.revoked_at ? null : (
                        <form method="post" action={`${props.base}/certificates/${r.fingerprint}/revoke`} data-confirm={en ? 'Revoke this certificate?' : 'Revogar este certificado?'}>
                          <CsrfField ctx={ctx} />
                          <button class="danger" type="submit" aria-label={`${en ? 'Revoke' : 'Revogar'} ${r.fingerprint.slice(0, 12)}`}>{en ? 'Revoke' : 'Revogar'}</button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </>
    );
  }

  /** Parses "Name: value" lines; a line without a colon is an error naming it. */
  function parseHeaders(text: string): WebhookHeader[] | string {
    const headers: WebhookHeader[] = [];
    for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
      const at = line.indexOf(':');
      if (at <= 0) return `headers: "${line.slice(0, 40)}" must be "Name: value"`;
      headers.push({ key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() });
    }
    return headers;
  }

  /**
   * Registers the POST actions under `base` for the account `accountOf(request)` picks; `show`
   * re-renders the page of a section with a result (created secret, made key, an error).
   */
  function registerActions(
    app: Parameters<PortalRoutes>[0],
    base: string,
    accountOf: (request: FastifyRequest) => Promise<number> | number,
    show: (request: FastifyRequest, reply: Parameters<typeof render>[0], section: 'webhooks' | 'credentials' | 'certificates', extra: Record<string, unknown>, status?: number) => Promise<unknown>,
  ) {
    const back = (request: FastifyRequest, section: string) => `/portal${base.replace(/:id/, String((request.params as { id?: string }).id ?? ''))}/${section}`;

    app.post(`${base}/webhooks`, async (request, reply) => {
      const accountId = await accountOf(request);
      const eventType = EVENTS.find((e) => e === field(request.body, 'eventType'));
      const headers = parseHeaders(field(request.body, 'headers'));
      if (!eventType) return show(request, reply, 'webhooks', { error: 'eventType must be one of: ' + EVENTS.join(', ') }, 400);
      if (typeof headers === 'string') return show(request, reply, 'webhooks', { error: headers }, 400);
      try {
        await c.webhooks.register(accountId, { eventType, url: field(request.body, 'url').trim(), headers }, recordAs(c.audit, actorOf(request), 'webhook.register'));
      } catch (error) {
        const refused = refusal(error, request.portal.lang);
        return show(request, reply, 'webhooks', { error: refused.message }, refused.status);
      }
      return reply.redirect(back(request, 'webhooks'), 303);
    });

    app.post(`${base}/webhooks/:webhookId/remove`, async (request, reply) => {
      const accountId = await accountOf(request);
      const webhookId = Number((request.params as { webhookId: string }).webhookId);
      // remove() takes any id: check it is this account's first, so a foreign id is a 404.
      const own = (await c.webhooks.list(accountId)).some((w) => w.id === webhookId);
      if (!own) throw new DomainError('NOT_FOUND');
      await c.webhooks.remove(webhookId, recordAs(c.audit, actorOf(request), 'webhook.remove'));
      return reply.redirect(back(request, 'webhooks'), 303);
    });

    app.post(`${base}/webhooks/secret`, async (request, reply) => {
      const accountId = await accountOf(request);
      return show(request, reply, 'webhooks', { secret: await c.webhooks.secretOf(accountId) });
    });

    app.post(`${base}/webhooks/secret/rotate`, async (request, reply) => {
      const accountId = await accountOf(request);
      const rotated = await c.webhooks.rotateSecret(accountId, recordAs(c.audit, actorOf(request), 'webhook-secret.rotate'));
      return show(request, reply, 'webhooks', { secret: rotated.secret, rotatedUntil: rotated.previousSecretValidUntil });
    });

    app.post(`${base}/webhooks/test`, async (request, reply) => {
      const accountId = await accountOf(request);
      const event = EVENTS.find((e) => e === field(request.body, 'event'));
      if (!event) return show(request, reply, 'webhooks', { testError: 'event must be one of: ' + EVENTS.join(', ') }, 400);
      try {
        const sent = await c.webhookTests.send(accountId, event, recordAs(c.audit, actorOf(request), 'webhook.test'));
        return show(request, reply, 'webhooks', { tested: { event, attempts: sent.attempts } });
      } catch (error) {
        const refused = refusal(error, request.portal.lang);
        return show(request, reply, 'webhooks', { testError: refused.message }, refused.status);
      }
    });

    app.post(`${base}/credentials`, async (request, reply) => {
      const accountId = await accountOf(request);
      const created = await c.credentials.create(accountId, {}, recordAs(c.audit, actorOf(request), 'credential.create'));
      return show(request, reply, 'credentials', { created }, 201);
    });

    app.post(`${base}/credentials/:clientId/revoke`, async (request, reply) => {
      const accountId = await accountOf(request);
      await c.credentials.revoke(accountId, (request.params as { clientId: string }).clientId, recordAs(c.audit, actorOf(request), 'credential.revoke'));
      return reply.redirect(back(request, 'credentials'), 303);
    });

    app.post(`${base}/certificates`, async (request, reply) => {
      const accountId = await accountOf(request);
      // An uploaded file wins over the text box; either way the same service checks the PEM.
      const pem = uploadedText(request.body, 'pemFile') || field(request.body, 'pem');
      try {
        if (pem.includes('CERTIFICATE REQUEST-----')) {
          const signed = await c.certificates.signRequest(accountId, pem, recordAs(c.audit, actorOf(request), 'certificate.sign-request'));
          return show(request, reply, 'certificates', { made: { certificatePem: signed.certificatePem } }, 201);
        }
        await c.certificates.register(accountId, pem, recordAs(c.audit, actorOf(request), 'certificate.register'));
      } catch (error) {
        const refused = refusal(error, request.portal.lang);
        return show(request, reply, 'certificates', { error: refused.message }, refused.status);
      }
      return reply.redirect(back(request, 'certificates'), 303);
    });

    app.post(`${base}/certificates/make`, async (request, reply) => {
      const accountId = await accountOf(request);
      const made = await c.certificates.make(accountId, recordAs(c.audit, actorOf(request), 'certificate.make'));
      return show(request, reply, 'certificates', { made }, 201);
    });

    app.post(`${base}/certificates/:fingerprint/revoke`, async (request, reply) => {
      const accountId = await accountOf(request);
      const fingerprint = (request.params as { fingerprint: string }).fingerprint;
      const own = (await c.certificates.list(accountId)).some((r) => r.fingerprint === fingerprint);
      if (!own) throw new DomainError('NOT_FOUND');
      await c.certificates.revoke(fingerprint, recordAs(c.audit, actorOf(request), 'certificate.revoke'));
      return reply.redirect(back(request, 'certificates'), 303);
    });
  }

  return { WebhooksSection, CredentialsSection, CertificatesSection, registerActions };
}

export const integrationRoutes: PortalRoutes = (app, c) => {
  const pages = integrationPages(c);
  const titles = { webhooks: 'webhooks', credentials: 'credentials', certificates: 'certificates' } as const;

  async function show(request: FastifyRequest, reply: Parameters<typeof render>[0], section: keyof typeof titles, extra: Record<string, unknown> = {}, status = 200) {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const body =
      section === 'webhooks' ? <pages.WebhooksSection ctx={ctx} accountId={accountId} base="/portal" {...extra} />
      : section === 'credentials' ? <pages.CredentialsSection ctx={ctx} accountId={accountId} base="/portal" {...extra} />
      : <pages.CertificatesSection ctx={ctx} accountId={accountId} base="/portal" {...extra} />;
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t(titles[section])} active={`/portal/${section}`}>
        <h1>{ctx.t(titles[section])}</h1>
        {body}
        {section === 'webhooks' ? <DeliveryLog ctx={ctx} accountId={accountId} /> : null}
      </Page>,
      status,
    );
  }

  async function DeliveryLog(props: { ctx: PageContext; accountId: number }) {
    const en = props.ctx.lang === 'en';
    const rows = await c.reads.recentAttempts(props.accountId, 25);
    return (
      <section class="card table-card section" aria-labelledby="attempts">
        <h2 id="attempts">{en ? 'Latest delivery attempts' : 'Últimas tentativas de entrega'}</h2>
        {rows.length === 0 ? <p class="empty">{props.ctx.t('noneYet')}</p> : (
          <table>
            <thead><tr><th scope="col">{props.ctx.t('date')}</th><th scope="col" class="hide-phone">URL</th><th scope="col">HTTP</th><th scope="col" class="num">{en ? 'Duration' : 'Duração'}</th><th scope="col">{en ? 'Next retry' : 'Próxima tentativa'}</th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <td>{r.transaction_id ? <a href={`/portal/transactions/${r.transaction_id}`}>{dateTime(r.created_at, props.ctx.lang)}</a> : dateTime(r.created_at, props.ctx.lang)}</td>
                  <td class="hide-phone mono">{r.url}</td>
                  <td><span class={`pill ${r.status_code && r.status_code < 300 ? 'pill-ok' : 'pill-bad'}`}>{r.status_code ?? (r.error ? r.error.slice(0, 30) : '—')}</span></td>
                  <td class="num">{`${r.duration_ms} ms`}</td>
                  <td>{r.delivery_status === 'pending' ? dateTime(r.next_attempt_at, props.ctx.lang) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    );
  }

  for (const section of ['webhooks', 'credentials', 'certificates'] as const) {
    app.get(`/${section}`, (request, reply) => show(request, reply, section));
  }
  pages.registerActions(app, '', (request) => memberAccountId(request), (request, reply, section, extra, status) => show(request, reply, section, extra, status));

  app.post('/webhooks/resend-transaction/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const id = (request.params as { id: string }).id;
    try {
      // With a webhook: that delivery's registered URL only (with its custom headers); without: every URL of the event.
      const webhook = field(request.body, 'webhook');
      if (webhook && !/^\d{1,12}$/.test(webhook)) throw new ValidationError(['webhook must be the id of one of your webhook URLs']);
      await c.webhookResend.resend(accountId, id, webhook ? { webhookId: Number(webhook) } : {});
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      if (refused.status === 404) throw new DomainError('NOT_FOUND');
      throw error;
    }
    return reply.redirect(`/portal/transactions/${id}`, 303);
  });
};
