/** @jsxImportSource hono/jsx */
import { brl } from '../format.ts';
import type { PageContext } from '../layout.tsx';

/** Available, blocked (MED precautions) and total, in cents. */
export function BalanceCards(props: { ctx: PageContext; available: number; blocked: number }) {
  const t = props.ctx.t;
  return (
    <section class="cards" aria-label={t('balance')}>
      <div class="card stat-primary">
        <div class="stat-label">{t('available')}</div>
        <div class="stat-value">{brl(props.available)}</div>
      </div>
      <div class="card">
        <div class="stat-label">{t('blocked')}</div>
        <div class="stat-value">{brl(props.blocked)}</div>
      </div>
      <div class="card">
        <div class="stat-label">{t('total')}</div>
        <div class="stat-value">{brl(props.available + props.blocked)}</div>
      </div>
    </section>
  );
}
