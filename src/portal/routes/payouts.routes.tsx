/** @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import { maskDocument } from '../../domain/documents.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import type { PublicKeyType } from '../../domain/pix-keys.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { brl } from '../format.ts';
import { centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';

const KEY_TYPES: PublicKeyType[] = ['RANDOM', 'DOCUMENT', 'EMAIL', 'PHONE'];
const KEY_LABELS: Record<PublicKeyType, [string, string]> = {
  RANDOM: ['Random key', 'Chave aleatória'],
  DOCUMENT: ['CPF / CNPJ', 'CPF / CNPJ'],
  EMAIL: ['Email', 'E-mail'],
  PHONE: ['Phone', 'Celular'],
};

interface PayoutForm {
  key: string;
  keyType: string;
  amount: string;
  description: string;
}

function PayoutStart(props: { ctx: PageContext; form?: PayoutForm; error?: string }) {
  const { ctx } = props;
  const en = ctx.lang === 'en';
  return (
    <Page ctx={ctx} title={ctx.t('payouts')} active="/portal/payouts">
      <h1>{en ? 'Send a PIX' : 'Enviar um PIX'}</h1>
      <p class="lead">{en ? 'You will see who receives it before any money moves.' : 'Você verá quem recebe antes de o dinheiro sair.'}</p>
      <section class="card" style="max-width: 560px" aria-label={en ? 'Payout' : 'Pagamento'}>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <form class="stack" method="post" action="/portal/payouts/review">
          <CsrfField ctx={ctx} />
          <div>
            <label for="keyType">{en ? 'Key type' : 'Tipo de chave'}</label>
            <select id="keyType" name="keyType">
              {KEY_TYPES.map((k) => <option value={k} selected={props.form?.keyType === k}>{KEY_LABELS[k][en ? 0 : 1]}</option>)}
            </select>
          </div>
          <div>
            <label for="key">{ctx.t('pixKey')}</label>
            <input id="key" name="key" required autocomplete="off" value={props.form?.key ?? ''} />
          </div>
          <div>
            <label for="amount">{en ? 'Amount (R$)' : 'Valor (R$)'}</label>
            <input id="amount" name="amount" inputmode="decimal" required placeholder="1.234,56" value={props.form?.amount ?? ''} />
          </div>
          <div>
            <label for="description">{ctx.t('description')}</label>
            <input id="description" name="description" maxlength={140} value={props.form?.description ?? ''} />
          </div>
          <button class="primary" type="submit">{en ? 'Review' : 'Revisar'}</button>
        </form>
      </section>
    </Page>
  );
}

export const payoutsRoutes: PortalRoutes = (app, c) => {
  const readForm = (body: unknown): PayoutForm => ({
    key: field(body, 'key').trim(),
    keyType: field(body, 'keyType'),
    amount: field(body, 'amount'),
    description: field(body, 'description'),
  });

  /** Checks the form; answers the amount in cents and the key type, or the problem to show. */
  function check(form: PayoutForm, en: boolean): { amount: Cents; keyType: PublicKeyType } | { problem: string } {
    const keyType = KEY_TYPES.find((k) => k === form.keyType);
    if (!keyType) return { problem: en ? 'keyType must be one of RANDOM, DOCUMENT, EMAIL, PHONE' : 'tipo de chave inválido' };
    const amount = centsFromForm(form.amount);
    if (amount === undefined || amount <= 0) return { problem: en ? 'amount must be an amount in reais with at most 2 decimals, like 1.234,56' : 'valor deve ser um valor em reais com até 2 casas decimais, como 1.234,56' };
    return { amount: amount as Cents, keyType };
  }

  /** The payout already sent with this confirmation's externalId; any failure but "not found" propagates. */
  async function sentWith(accountId: number, externalId: string) {
    try {
      return await c.transactions.get(accountId, externalId);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  app.get('/payouts', async (request, reply) => {
    memberAccountId(request);
    return render(reply, <PayoutStart ctx={request.portal} />);
  });

  // Step 2: look the key up and show the holder's name and bank; nothing moves yet.
  app.post('/payouts/review', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    const form = readForm(request.body);
    const checked = check(form, en);
    if ('problem' in checked) return render(reply, <PayoutStart ctx={ctx} form={form} error={checked.problem} />, 400);
    let holder;
    try {
      holder = await c.payouts.cashOut.preview(accountId, form.key, checked.keyType);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
    // The externalId is fixed here: pressing Confirm twice (or resubmitting) pays once.
    const externalId = randomUUID();
    return render(
      reply,
      <Page ctx={ctx} title={ctx.t('payouts')} active="/portal/payouts">
        <h1>{en ? 'Confirm the payment' : 'Confirme o pagamento'}</h1>
        <section class="card" style="max-width: 560px" aria-labelledby="confirm">
          <h2 id="confirm" class="confirm-amount">{brl(checked.amount)}</h2>
          <dl class="details">
            <dt>{en ? 'To' : 'Para'}</dt><dd id="holder-name">{holder.name}</dd>
            <dt>{ctx.t('document')}</dt><dd class="mono">{maskDocument(holder.document)}</dd>
            <dt>{ctx.t('bank')}</dt><dd id="holder-bank">{holder.bank.name}</dd>
            <dt>{ctx.t('pixKey')}</dt><dd class="mono">{form.key}</dd>
            {form.description ? (<><dt>{ctx.t('description')}</dt><dd>{form.description}</dd></>) : null}
          </dl>
          <form class="stack" method="post" action="/portal/payouts" style="margin-top: 18px">
            <CsrfField ctx={ctx} />
            <input type="hidden" name="key" value={form.key} />
            <input type="hidden" name="keyType" value={checked.keyType} />
            <input type="hidden" name="amount" value={form.amount} />
            <input type="hidden" name="description" value={form.description} />
            <input type="hidden" name="externalId" value={externalId} />
            <input type="hidden" name="holderName" value={holder.name} />
            <input type="hidden" name="holderDocument" value={holder.document} />
            <button class="primary" type="submit">{en ? `Send ${brl(checked.amount)}` : `Enviar ${brl(checked.amount)}`}</button>
            <a href="/portal/payouts">{en ? 'Cancel' : 'Cancelar'}</a>
          </form>
        </section>
      </Page>,
    );
  });

  // Step 3: the same cash-out as POST /api/pix/cash-out (limits, balance, idempotency by externalId).
  app.post('/payouts', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    const form = readForm(request.body);
    const checked = check(form, en);
    if ('problem' in checked) return render(reply, <PayoutStart ctx={ctx} form={form} error={checked.problem} />, 400);
    const externalId = field(request.body, 'externalId');
    if (!/^[0-9a-f-]{36}$/.test(externalId)) return render(reply, <PayoutStart ctx={ctx} form={form} error={en ? 'Review the payment again.' : 'Revise o pagamento de novo.'} />, 400);
    // Already sent with this confirmation (Confirm pressed twice): show that payment, send nothing.
    const existing = await sentWith(accountId, externalId);
    if (existing) return reply.redirect(`/portal/transactions/${existing.transaction_id}`, 303);
    try {
      const tx = await c.payouts.cashOut.create({
        accountId,
        amount: checked.amount,
        externalId,
        description: form.description || null,
        details: { key: form.key, keyType: checked.keyType, name: field(request.body, 'holderName'), document: field(request.body, 'holderDocument') },
        scenario: null,
        // Who sent it, from where: recorded in the payout's own transaction.
        record: (trx, tx) =>
          c.audit.record(trx, actorOf(request), { action: 'payout.send', accountId, target: tx.transaction_id, after: { amount: tx.original_amount, key: form.key } }),
      });
      return reply.redirect(`/portal/transactions/${tx.transaction_id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      // A concurrent double submit loses the race on the unique externalId: show the winner.
      const winner = await sentWith(accountId, externalId);
      if (winner) return reply.redirect(`/portal/transactions/${winner.transaction_id}`, 303);
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
  });
};
