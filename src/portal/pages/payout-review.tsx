/** @jsxImportSource hono/jsx */
import { maskDocument } from '../../domain/documents.ts';
import type { Cents } from '../../domain/money.ts';
import type { PublicKeyType } from '../../domain/pix-keys.ts';
import type { PayeePreview } from '../../services/payouts/cash-out.service.ts';
import { brl } from '../format.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';
import type { PayoutForm } from './payout-start.tsx';

/** What the member typed about the recipient on the confirmation (asked only when the network needs it). */
export interface RecipientForm {
  document: string;
  name: string;
}

/**
 * The confirmation: who the key's payment reaches as far as the directory says (a part it does not
 * say is named as unknown, never left blank), and the recipient's CPF or CNPJ asked for when the
 * network needs it to pay (a provider without key look-up).
 */
export function PayoutReview(props: { ctx: PageContext; form: PayoutForm; amount: Cents; keyType: PublicKeyType; holder: PayeePreview; externalId: string; recipient?: RecipientForm; error?: string }) {
  const { ctx, form, holder } = props;
  const t = ctx.t;
  const notKnown = <em class="muted">{t('notKnownUntilSettled')}</em>;
  return (
    <Page ctx={ctx} title={t('payouts')} active="/portal/payouts">
      <h1>{t('confirmPayment')}</h1>
      <section class="card" style="max-width: 560px" aria-labelledby="confirm">
        <h2 id="confirm" class="confirm-amount">{brl(props.amount)}</h2>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <dl class="details">
          <dt>{t('payTo')}</dt>
          <dd id="holder-name">{holder.name ?? notKnown}</dd>
          {holder.document !== null ? (
            <>
              <dt>{t('document')}</dt>
              <dd class="mono" id="holder-document">{maskDocument(holder.document)}</dd>
            </>
          ) : holder.documentRequired ? null : (
            <>
              <dt>{t('document')}</dt>
              <dd id="holder-document"><em class="muted">{t('notGivenByDirectory')}</em></dd>
            </>
          )}
          <dt>{t('bank')}</dt>
          <dd id="holder-bank">{holder.bank.name ?? notKnown}</dd>
          <dt>{t('pixKey')}</dt>
          <dd class="mono" id="review-key">{form.key}</dd>
          <dt>{t('keyRead')}</dt>
          <dd id="review-key-type">{t(`KEY_${props.keyType}`)}</dd>
          {form.description ? (<><dt>{t('description')}</dt><dd>{form.description}</dd></>) : null}
        </dl>
        <form class="stack" method="post" action="/portal/payouts" style="margin-top: 18px">
          <CsrfField ctx={ctx} />
          {holder.documentRequired ? (
            <>
              <p class="hint" id="recipient-hint">
                {t('recipientHint')}
              </p>
              <div>
                <label for="document">{t('recipientDocument')}</label>
                <input id="document" name="document" required autocomplete="off" inputmode="numeric" aria-describedby="recipient-hint" value={props.recipient?.document ?? ''} />
              </div>
              <div>
                <label for="name">{t('recipientName')}</label>
                <input id="name" name="name" autocomplete="off" maxlength={100} value={props.recipient?.name ?? ''} />
              </div>
            </>
          ) : null}
          <input type="hidden" name="key" value={form.key} />
          <input type="hidden" name="keyType" value={props.keyType} />
          <input type="hidden" name="amount" value={form.amount} />
          <input type="hidden" name="description" value={form.description} />
          <input type="hidden" name="externalId" value={props.externalId} />
          <button class="primary" type="submit">{t('sendAmount', { amount: brl(props.amount) })}</button>
          <a href="/portal/payouts">{t('cancel')}</a>
        </form>
      </section>
    </Page>
  );
}
