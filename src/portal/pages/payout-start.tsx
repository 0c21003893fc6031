/** @jsxImportSource hono/jsx */
import { PUBLIC_KEY_TYPES, type PublicKeyType } from '../../domain/closed-lists.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';

/** The form's order of the public key types (every one has its place, or this does not compile). */
const FORM_ORDER = { RANDOM: 0, DOCUMENT: 1, EMAIL: 2, PHONE: 3 } as const satisfies Record<PublicKeyType, number>;
export const KEY_TYPES: readonly PublicKeyType[] = [...PUBLIC_KEY_TYPES].sort((a, b) => FORM_ORDER[a] - FORM_ORDER[b]);

/** What the member typed on the payout form. */
export interface PayoutForm {
  key: string;
  keyType: string;
  amount: string;
  description: string;
}

/** The payout form: key, amount, description (nothing moves before the confirmation). */
export function PayoutStart(props: { ctx: PageContext; form?: PayoutForm; error?: string }) {
  const { ctx } = props;
  const t = ctx.t;
  return (
    <Page ctx={ctx} title={t('payouts')} active="/portal/payouts">
      <h1>{t('sendPix')}</h1>
      <p class="lead">{t('sendPixLead')}</p>
      <section class="card" style="max-width: 560px" aria-label={t('payout')}>
        {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
        <form class="stack" method="post" action="/portal/payouts/review">
          <CsrfField ctx={ctx} />
          <div>
            <label for="keyType">{t('keyType')}</label>
            <select id="keyType" name="keyType">
              <option value="" selected={!props.form?.keyType}>{t('KEY_AUTO')}</option>
              {KEY_TYPES.map((k) => <option value={k} selected={props.form?.keyType === k}>{t(`KEY_${k}`)}</option>)}
            </select>
          </div>
          <div>
            <label for="key">{t('pixKey')}</label>
            <input id="key" name="key" required autocomplete="off" aria-describedby="key-hint" value={props.form?.key ?? ''} />
            <p class="hint" id="key-hint">{t('keyHint')}</p>
          </div>
          <div>
            <label for="amount">{t('amountReais')}</label>
            <input id="amount" name="amount" inputmode="decimal" required placeholder="1.234,56" value={props.form?.amount ?? ''} />
          </div>
          <div>
            <label for="description">{t('description')}</label>
            <input id="description" name="description" maxlength={140} value={props.form?.description ?? ''} />
          </div>
          <button class="primary" type="submit">{t('review')}</button>
        </form>
      </section>
    </Page>
  );
}
