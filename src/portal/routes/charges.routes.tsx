/** @jsxImportSource hono/jsx */
import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { chargeOutcome, ChargePage, ChargesPage, ChargeStatus } from '../pages/charges.tsx';

const TXID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A cob txid (26-35 alphanumerics), random. */
function newTxid(): string {
  return [...randomBytes(32)].map((b) => TXID_ALPHABET[b % TXID_ALPHABET.length]).join('');
}

/** The member's charges: create one (a cob, as POST /cob does), see it, watch its status. */
export const chargesRoutes: PortalRoutes = (app, s) => {
  const list = async (accountId: number) => s.reads.chargesOf(accountId, 20);

  app.get('/charges', async (request, reply) => {
    const accountId = memberAccountId(request);
    return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} />);
  });

  app.post('/charges', async (request, reply) => {
    const accountId = memberAccountId(request);
    const form = { value: field(request.body, 'value'), description: field(request.body, 'description'), expiration: field(request.body, 'expiration') };
    const t = request.portal.t;
    const amount = centsFromForm(form.value);
    const minutes = Number(form.expiration);
    let problem: string | undefined;
    if (amount === undefined || amount <= 0) problem = t('chargeValueInvalid');
    else if (!Number.isInteger(minutes) || minutes < 1 || minutes > 43200) problem = t('chargeExpirationInvalid');
    if (problem) return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} error={problem} form={form} />, 400);
    try {
      const account = await s.accounts.get(accountId);
      // Decisions 6: in the sandbox a portal charge waits for its payer (the sandbox tools pay it).
      const { tx } = await s.charges.createCob(
        accountId,
        newTxid(),
        { expiracao: minutes * 60, amount: amount as Cents, modalidadeAlteracao: 0, chave: account.pix_key, ...(form.description ? { solicitacaoPagador: form.description } : {}) },
        s.sandboxMode ? 'pending' : undefined,
        // Who created it, from where: recorded in the charge's own transaction.
        (trx, created) =>
          s.audit.record(trx, actorOf(request), { action: 'charge.create', accountId, target: created.tx.transaction_id, after: { amount: created.charge.amount, txid: created.charge.txid } }),
      );
      return reply.redirect(`/portal/charges/${tx.transaction_id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <ChargesPage ctx={request.portal} charges={await list(accountId)} error={refused.message} form={form} />, refused.status);
    }
  });

  app.get('/charges/:id', async (request, reply) => {
    const accountId = memberAccountId(request);
    const charge = await s.reads.chargeOf(accountId, (request.params as { id: string }).id);
    if (!charge) throw new DomainError('NOT_FOUND');
    // A paid, expired or cancelled charge shows its outcome: no QR code anyone could still pay.
    const outcome = chargeOutcome(charge, s.clock.now());
    const qr = outcome === 'open' ? await QRCode.toDataURL(charge.br_code, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 6 }) : undefined;
    return render(reply, <ChargePage ctx={request.portal} charge={charge} outcome={outcome} qr={qr} />);
  });

  app.get('/charges/:id/status', async (request, reply) => {
    const accountId = memberAccountId(request);
    const charge = await s.reads.chargeOf(accountId, (request.params as { id: string }).id);
    if (!charge) throw new DomainError('NOT_FOUND');
    // Once the charge has an outcome the page reloads itself, so its QR code goes away.
    if (chargeOutcome(charge, s.clock.now()) !== 'open') reply.header('hx-refresh', 'true');
    return render(reply, <ChargeStatus ctx={request.portal} id={charge.transaction_id} status={charge.status} />);
  });
};
