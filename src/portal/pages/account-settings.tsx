/** @jsxImportSource hono/jsx */
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import { percentFromBasisPoints } from '../../domain/money.ts';
import { brl } from '../format.ts';
import { CsrfField, type PageContext } from '../layout.tsx';

/** An amount in cents as the forms show it: `1.234,56`. */
const toForm = (cents: number) => brl(cents).replace('R$ ', '');

/** An account's cash-out limits and fees, each set with its own form. */
export function AccountSettings(props: { ctx: PageContext; account: AccountRow }) {
  const { ctx, account: a } = props;
  const t = ctx.t;
  const base = `/admin/accounts/${a.id}`;
  return (
    <div class="grid-2 section">
      <section class="card" aria-labelledby="limits">
        <h2 id="limits">{t('cashOutLimits')}</h2>
        <form class="stack" method="post" action={`/portal${base}/limits`}>
          <CsrfField ctx={ctx} />
          <div><label for="perTransaction">{t('perTransaction')}</label><input id="perTransaction" name="perTransaction" inputmode="decimal" value={toForm(a.limit_per_transaction)} /></div>
          <div><label for="daily">{t('perDay')}</label><input id="daily" name="daily" inputmode="decimal" value={toForm(a.limit_daily)} /></div>
          <div><label for="nightly">{t('perNight')}</label><input id="nightly" name="nightly" inputmode="decimal" value={toForm(a.limit_nightly)} /></div>
          <button class="primary" type="submit">{t('saveLimits')}</button>
        </form>
      </section>
      <section class="card" aria-labelledby="fees">
        <h2 id="fees">{t('fees')}</h2>
        <form class="stack" method="post" action={`/portal${base}/fees`}>
          <CsrfField ctx={ctx} />
          <div class="grid-2">
            <div><label for="cashInFixed">{t('cashInFixed')}</label><input id="cashInFixed" name="cashInFixed" inputmode="decimal" value={toForm(a.fee_cash_in_fixed)} /></div>
            <div><label for="cashInPercent">{t('cashInPercent')}</label><input id="cashInPercent" name="cashInPercent" inputmode="decimal" value={String(percentFromBasisPoints(a.fee_cash_in_percent_bp)).replace('.', ',')} /></div>
            <div><label for="cashOutFixed">{t('cashOutFixed')}</label><input id="cashOutFixed" name="cashOutFixed" inputmode="decimal" value={toForm(a.fee_cash_out_fixed)} /></div>
            <div><label for="cashOutPercent">{t('cashOutPercent')}</label><input id="cashOutPercent" name="cashOutPercent" inputmode="decimal" value={String(percentFromBasisPoints(a.fee_cash_out_percent_bp)).replace('.', ',')} /></div>
          </div>
          <button class="primary" type="submit">{t('saveFees')}</button>
        </form>
      </section>
    </div>
  );
}
