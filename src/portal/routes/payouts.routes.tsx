/** @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import { maskDocument } from '../../domain/documents.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import type { PublicKeyType } from '../../domain/pix-keys.ts';
import { isDocument, type PayeePreview } from '../../services/payouts/cash-out.service.ts';
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

/** What the member typed about the recipient on the confirmation (asked only when the network needs it). */
interface RecipientForm {
  document: string;
  name: string;
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

/**
 * The confirmation: who the key's payment reaches as far as the directory says (a part it does not
 * say is named as unknown, never left blank), and the recipient's CPF or CNPJ asked for when the
 * network needs it to pay (a provider without key look-up).
 */
function PayoutReview(props: { ctx: PageContext; form: PayoutForm; amount: Cents; keyType: PublicKeyType; holder: PayeePreview; externalId: string; recipient?: RecipientForm; error?: string }) {
  const { ctx, form, holder } = props;
  const en = ctx.lang === 'en';
  const notKnown = <em class="muted">{ctx.t('notKnownUntilSettled')}</em>;
  return (
    <Page ctx={ctx} title={ctx.t('payouts')} active="/portal/payouts">
      <h1>{en ? 'Confirm the payment' : 'Confirme o pagamento'}</h1>
      <section class="card" style="max-width: 560px" aria-labelledby="confirm">
        <h2 id="confirm" class="confirm-amount">{brl(props.amount)}</h2>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <dl class="details">
          <dt>{en ? 'To' : 'Para'}</dt>
          <dd id="holder-name">{holder.name ?? notKnown}</dd>
          {holder.document !== null ? (
            <>
              <dt>{ctx.t('document')}</dt>
              <dd class="mono" id="holder-document">{maskDocument(holder.document)}</dd>
            </>
          ) : holder.documentRequired ? null : (
            <>
              <dt>{ctx.t('document')}</dt>
              <dd id="holder-document"><em class="muted">{ctx.t('notGivenByDirectory')}</em></dd>
            </>
          )}
          <dt>{ctx.t('bank')}</dt>
          <dd id="holder-bank">{holder.bank.name ?? notKnown}</dd>
          <dt>{ctx.t('pixKey')}</dt>
          <dd class="mono">{form.key}</dd>
          {form.description ? (<><dt>{ctx.t('description')}</dt><dd>{form.description}</dd></>) : null}
        </dl>
        <form class="stack" method="post" action="/portal/payouts" style="margin-top: 18px">
          <CsrfField ctx={ctx} />
          {holder.documentRequired ? (
            <>
              <p class="hint" id="recipient-hint">
                {en
                  ? "The payment network does not say who holds a key before paying it. Give the recipient's CPF or CNPJ: the receiving bank refuses the payment if it is not the key holder's. Their name and bank show on the payment once it settles."
                  : 'A rede de pagamentos não informa quem é o titular de uma chave antes de pagá-la. Informe o CPF ou CNPJ de quem recebe: o banco de destino recusa o pagamento se não for o do titular da chave. O nome e o banco aparecem no pagamento quando ele for concluído.'}
              </p>
              <div>
                <label for="document">{en ? "Recipient's CPF or CNPJ" : 'CPF ou CNPJ de quem recebe'}</label>
                <input id="document" name="document" required autocomplete="off" inputmode="numeric" aria-describedby="recipient-hint" value={props.recipient?.document ?? ''} />
              </div>
              <div>
                <label for="name">{en ? "Recipient's name (optional)" : 'Nome de quem recebe (opcional)'}</label>
                <input id="name" name="name" autocomplete="off" maxlength={100} value={props.recipient?.name ?? ''} />
              </div>
            </>
          ) : null}
          <input type="hidden" name="key" value={form.key} />
          <input type="hidden" name="keyType" value={props.keyType} />
          <input type="hidden" name="amount" value={form.amount} />
          <input type="hidden" name="description" value={form.description} />
          <input type="hidden" name="externalId" value={props.externalId} />
          <button class="primary" type="submit">{en ? `Send ${brl(props.amount)}` : `Enviar ${brl(props.amount)}`}</button>
          <a href="/portal/payouts">{en ? 'Cancel' : 'Cancelar'}</a>
        </form>
      </section>
    </Page>
  );
}

/** A CPF or CNPJ as people type it (dots, dashes, slashes, spaces), as the service stores it. */
const typedDocument = (text: string) => text.replace(/[.\-/\s]/g, '').toUpperCase();

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

  /** The recipient's document as typed, or the problem to show on the confirmation. */
  function checkRecipient(recipient: RecipientForm, holder: PayeePreview, en: boolean): { document: string | null } | { problem: string } {
    const document = typedDocument(recipient.document);
    if (document !== '' && !isDocument(document)) {
      return { problem: en ? "The recipient's CPF or CNPJ is not valid: a CPF has 11 digits, a CNPJ 14 characters, with their check digits." : 'O CPF ou CNPJ de quem recebe não é válido: um CPF tem 11 dígitos e um CNPJ 14 caracteres, com os dígitos verificadores.' };
    }
    if (document === '' && holder.documentRequired) {
      return { problem: en ? "Give the recipient's CPF or CNPJ: the payment network needs it to pay this key." : 'Informe o CPF ou CNPJ de quem recebe: a rede de pagamentos precisa dele para pagar esta chave.' };
    }
    return { document: document === '' ? null : document };
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

  // Step 2: look the key up and show what is known of its holder and bank; nothing moves yet.
  app.post('/payouts/review', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const en = ctx.lang === 'en';
    const form = readForm(request.body);
    const checked = check(form, en);
    if ('problem' in checked) return render(reply, <PayoutStart ctx={ctx} form={form} error={checked.problem} />, 400);
    let holder;
    try {
      holder = await c.cashOut.preview(accountId, form.key, checked.keyType);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
    // The externalId is fixed here: pressing Confirm twice (or resubmitting) pays once.
    return render(reply, <PayoutReview ctx={ctx} form={form} amount={checked.amount} keyType={checked.keyType} holder={holder} externalId={randomUUID()} />);
  });

  // Step 3: the same cash-out as POST /api/pix/cash-out (limits, balance, idempotency by externalId).
  // The holder's document is the directory's (looked up again): only what the member typed is sent.
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
    const recipient: RecipientForm = { document: field(request.body, 'document').trim(), name: field(request.body, 'name').trim().slice(0, 100) };
    let holder: PayeePreview;
    try {
      holder = await c.cashOut.preview(accountId, form.key, checked.keyType);
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
    const review = (error: string, status: number) =>
      render(reply, <PayoutReview ctx={ctx} form={form} amount={checked.amount} keyType={checked.keyType} holder={holder} externalId={externalId} recipient={recipient} error={error} />, status);
    const named = checkRecipient(recipient, holder, en);
    if ('problem' in named) return review(named.problem, 400);
    try {
      const tx = await c.cashOut.create({
        accountId,
        amount: checked.amount,
        externalId,
        description: form.description || null,
        details: { key: form.key, keyType: checked.keyType, name: recipient.name || null, document: named.document },
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
