/** @jsxImportSource hono/jsx */
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { brl, centsFromForm, dateTime } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page, StatusPill, type PageContext } from '../layout.tsx';

const TXID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A cob txid (26-35 alphanumerics), random. */
function newTxid(): string {
  return [...randomBytes(32)].map((b) => TXID_ALPHABET[b % TXID_ALPHABET.length]).join('');
}

/** The charge's status; polls itself every 2 s while it waits for its payer. */
function ChargeStatus(props: { ctx: PageContext; id: string; status: 'PENDING' | 'CONFIRMED' | 'ERROR' }) {
  return props.status === 'PENDING' ? (
    <span id="charge-status" role="status" hx-get={`/portal/charges/${props.id}/status`} hx-trigger="every 2s" hx-swap="outerHTML">
      <StatusPill ctx={props.ctx} status={props.status} />
    </span>
  ) : (
    <span id="charge-status" role="status">
      <StatusPill ctx={props.ctx} status={props.status} />
    </span>
  );
}

export const chargesRoutes: PortalRoutes = (app, c) => {
  const list = async (accountId: number) => c.reads.chargesOf(accountId, 20);

  function ChargesPage(props: { ctx: PageContext; charges: Awaited<ReturnType<typeof list>>; error?: string; form?: Record<string, string> }) {
    const { ctx } = props;
    const t = ctx.t;
    const en = ctx.lang === 'en';
    return (
      <Page ctx={ctx} title={t('charges')} active="/portal/charges">
        <h1>{t('charges')}</h1>
        <p class="lead">{en ? 'A charge is a dynamic PIX QR code for one amount; your payer scans it or pastes the code.' : 'Uma cobrança é um QR code PIX dinâmico de um valor; quem paga lê o código ou cola o texto.'}</p>
        <div class="grid-2 section">
          <section class="card" aria-labelledby="new-charge">
            <h2 id="new-charge">{en ? 'New charge' : 'Nova cobrança'}</h2>
            {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
            <form class="stack" method="post" action="/portal/charges">
              <CsrfField ctx={ctx} />
              <div>
                <label for="value">{en ? 'Value (R$)' : 'Valor (R$)'}</label>
                <input id="value" name="value" inputmode="decimal" required placeholder="1.234,56" value={props.form?.value ?? ''} />
              </div>
              <div>
                <label for="description">{t('description')}</label>
                <input id="description" name="description" maxlength={140} value={props.form?.description ?? ''} />
              </div>
              <div>
                <label for="expiration">{en ? 'Expires in (minutes)' : 'Expira em (minutos)'}</label>
                <input id="expiration" name="expiration" type="number" min={1} max={43200} value={props.form?.expiration ?? '60'} required />
              </div>
              <button class="primary" type="submit">{en ? 'Create charge' : 'Criar cobrança'}</button>
            </form>
          </section>
          <section class="card table-card" aria-labelledby="recent-charges">
            <h2 id="recent-charges">{en ? 'Recent charges' : 'Cobranças recentes'}</h2>
            {props.charges.length === 0 ? <p class="empty">{t('noneYet')}</p> : (
              <table>
                <thead><tr><th scope="col">{t('createdAt')}</th><th scope="col">{t('status')}</th><th scope="col" class="num">{t('amount')}</th></tr></thead>
                <tbody>
                  {props.charges.map((ch) => (
                    <tr>
                      <td><a href={`/portal/charges/${ch.transaction_id}`}>{dateTime(ch.created_at, ctx.lang)}</a></td>
                      <td><StatusPill ctx={ctx} status={ch.status} /></td>
                      <td class="num">{brl(ch.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      </Page>
    );
  }

  app.get('/charges', async (request, reply) => {
    const accountId = memberAccountId(request);
    return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} />);
  });

  app.post('/charges', async (request, reply) => {
    const accountId = memberAccountId(request);
    const form = { value: field(request.body, 'value'), description: field(request.body, 'description'), expiration: field(request.body, 'expiration') };
    const en = request.portal.lang === 'en';
    const amount = centsFromForm(form.value);
    const minutes = Number(form.expiration);
    let problem: string | undefined;
    if (amount === undefined || amount <= 0) problem = en ? 'value must be an amount in reais with at most 2 decimals, like 1.234,56' : 'valor deve ser um valor em reais com até 2 casas decimais, como 1.234,56';
    else if (!Number.isInteger(minutes) || minutes < 1 || minutes > 43200) problem = en ? 'expiration must be a whole number of minutes between 1 and 43200' : 'expiração deve ser um número inteiro de minutos entre 1 e 43200';
    if (problem) return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} error={problem} form={form} />, 400);
    try {
      const account = await c.accounts.get(accountId);
      // Decisions 6: in the sandbox a portal charge waits for its payer (the sandbox tools pay it).
      const { tx } = await c.charges.createCob(
        accountId,
        newTxid(),
        { expiracao: minutes * 60, amount: amount as Cents, modalidadeAlteracao: 0, chave: account.pix_key, ...(form.description ? { solicitacaoPagador: form.description } : {}) },
        c.sandboxMode ? 'pending' : undefined,
        // Who created it, from where: recorded in the charge's own transaction.
        (trx, created) =>
          c.audit.record(trx, actorOf(request), { action: 'charge.create', accountId, target: created.tx.transaction_id, after: { amount: created.charge.amount, txid: created.charge.txid } }),
      );
      return reply.redirect(`/portal/charges/${tx.transaction_id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} error={refused.message} form={form} />, refused.status);
    }
  });

  app.get('/charges/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const charge = await c.reads.chargeOf(accountId, (request.params as { id: string }).id);
    if (!charge) throw new DomainError('NOT_FOUND');
    const ctx = request.portal;
    const t = ctx.t;
    const en = ctx.lang === 'en';
    const qr = await QRCode.toDataURL(charge.br_code, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
    return render(
      reply,
      <Page ctx={ctx} title={t('charges')} active="/portal/charges">
        <div class="page-head">
          <div>
            <h1>{en ? 'Charge' : 'Cobrança'} {brl(charge.amount)}</h1>
            <p class="lead">{charge.description ?? ''}</p>
          </div>
          <ChargeStatus ctx={ctx} id={charge.transaction_id} status={charge.status} />
        </div>
        <div class="grid-2">
          <section class="card" aria-labelledby="qr">
            <h2 id="qr">QR code</h2>
            <img class="qr" src={qr} alt={en ? `PIX QR code for ${brl(charge.amount)}` : `QR code PIX de ${brl(charge.amount)}`} />
            <label for="brcode" style="margin-top: 14px">{en ? 'PIX copy and paste' : 'PIX copia e cola'}</label>
            <div class="copy-row">
              <input id="brcode" class="mono" readonly value={charge.br_code} />
              <button type="button" class="secondary button" data-copy="brcode" data-copied={en ? 'Copied' : 'Copiado'}>{en ? 'Copy' : 'Copiar'}</button>
            </div>
          </section>
          <section class="card" aria-labelledby="charge-details">
            <h2 id="charge-details">{en ? 'Details' : 'Detalhes'}</h2>
            <dl class="details">
              <dt>{t('amount')}</dt><dd>{brl(charge.amount)}</dd>
              <dt>{t('createdAt')}</dt><dd>{dateTime(charge.created_at, ctx.lang)}</dd>
              <dt>{en ? 'Expires' : 'Expira'}</dt><dd>{dateTime(charge.expires_at, ctx.lang)}</dd>
              <dt>txid</dt><dd class="mono">{charge.txid}</dd>
              <dt>{t('transaction')}</dt><dd><a href={`/portal/transactions/${charge.transaction_id}`} class="mono">{charge.transaction_id}</a></dd>
            </dl>
          </section>
        </div>
      </Page>,
    );
  });

  app.get('/charges/:id/status', async (request, reply) => {
    const accountId = memberAccountId(request);
    const charge = await c.reads.chargeOf(accountId, (request.params as { id: string }).id);
    if (!charge) throw new DomainError('NOT_FOUND');
    return render(reply, <ChargeStatus ctx={request.portal} id={charge.transaction_id} status={charge.status} />);
  });
};
