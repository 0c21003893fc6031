/** @jsxImportSource hono/jsx */
import { brl, dateTime } from '../format.ts';
import { CsrfField, Page, type PageContext } from '../layout.tsx';
import type { PortalReads } from '../portal-reads.repo.ts';
import type { TestClockView } from '../../services/test-clocks/test-clock.service.ts';

type Pending = Awaited<ReturnType<PortalReads['pendingCharges']>>;
type Received = Awaited<ReturnType<PortalReads['receivedPix']>>;

/** The sandbox tools: receive a PIX, pay a charge, open a MED, move the clock. */
export function SandboxToolsPage(props: { ctx: PageContext; pending: Pending; received: Received; now: Date; testClock: TestClockView | undefined; notice?: string; error?: string }) {
  const { ctx } = props;
  const t = ctx.t;
  const { pending, received } = props;
  return (
    <Page ctx={ctx} title={t('sandboxTools')} active="/portal/sandbox">
      <h1>{t('sandboxTools')}<span class="badge-sandbox">{t('sandbox')}</span></h1>
      <p class="lead">{t('sandboxLead')}</p>
      {props.notice ? <div class="alert alert-ok" role="status">{props.notice}</div> : null}
      {props.error ? <div class="alert alert-error" role="alert">{props.error}</div> : null}
      <div class="grid-2 section">
        <section class="card" aria-labelledby="tool-deposit">
          <h2 id="tool-deposit">{t('receivePix')}</h2>
          <form class="stack" method="post" action="/portal/sandbox/deposit">
            <CsrfField ctx={ctx} />
            <div><label for="deposit-amount">{t('amountReais')}</label><input id="deposit-amount" name="amount" inputmode="decimal" required placeholder="100,00" /></div>
            <button class="primary" type="submit">{t('simulateIncoming')}</button>
          </form>
        </section>
        <section class="card" aria-labelledby="tool-pay">
          <h2 id="tool-pay">{t('payOwnCharge')}</h2>
          {pending.length === 0 ? <p class="hint">{t('noChargeWaiting')}</p> : (
            <form class="stack" method="post" action="/portal/sandbox/pay">
              <CsrfField ctx={ctx} />
              <div>
                <label for="charge">{t('charge')}</label>
                <select id="charge" name="charge">{pending.map((p) => <option value={p.transaction_id}>{`${brl(p.amount)} · ${dateTime(p.created_at, ctx.lang)}`}</option>)}</select>
              </div>
              <button class="primary" type="submit">{t('payAsOtherBank')}</button>
            </form>
          )}
        </section>
        <section class="card" aria-labelledby="tool-med">
          <h2 id="tool-med">{t('openMed')}</h2>
          {received.length === 0 ? <p class="hint">{t('noPixToDispute')}</p> : (
            <form class="stack" method="post" action="/portal/sandbox/med">
              <CsrfField ctx={ctx} />
              <div>
                <label for="med-pix">{t('receivedPix')}</label>
                <select id="med-pix" name="endToEndId">{received.map((r) => <option value={r.end_to_end_id ?? ''}>{`${brl(r.original_amount)} · ${dateTime(r.created_at, ctx.lang)}`}</option>)}</select>
              </div>
              <button class="primary" type="submit">{t('openMedButton')}</button>
            </form>
          )}
        </section>
        <section class="card" aria-labelledby="tool-clock">
          <h2 id="tool-clock">{t('moveClock')}</h2>
          <p class="hint">{t('sandboxTime', { time: dateTime(props.now, ctx.lang) })}</p>
          <form class="stack" method="post" action="/portal/sandbox/clock">
            <CsrfField ctx={ctx} />
            <div><label for="minutes">{t('minutesForward')}</label><input id="minutes" name="minutes" type="number" min={1} max={525600} required value="60" /></div>
            <button class="primary" type="submit">{t('moveForward')}</button>
          </form>
        </section>
        <TestClockCard ctx={ctx} clock={props.testClock} now={props.now} />
      </div>
    </Page>
  );
}

/** The account's own test clock (issue 29 item 3): shown and advanced, or started. */
function TestClockCard(props: { ctx: PageContext; clock: TestClockView | undefined; now: Date }) {
  const { ctx, clock } = props;
  const t = ctx.t;
  return (
    <section class="card" aria-labelledby="tool-test-clock">
      <h2 id="tool-test-clock">{t('testClock')}</h2>
      {clock ? (
        <div class="stack">
          <p class="hint" data-test-clock={clock.id}>{t('testClockTime', { time: dateTime(new Date(clock.frozenTime), ctx.lang) })}</p>
          <p class="hint">{t('testClockStatus', { status: t(clock.status === 'ready' ? 'testClockReady' : 'testClockAdvancing') })}</p>
          <form class="stack" method="post" action="/portal/sandbox/test-clock/advance">
            <CsrfField ctx={ctx} />
            <div><label for="test-clock-minutes">{t('testClockMinutes')}</label><input id="test-clock-minutes" name="minutes" type="number" min={1} max={525600} required value="60" /></div>
            <button class="primary" type="submit">{t('testClockAdvance')}</button>
          </form>
          <form method="post" action="/portal/sandbox/test-clock/delete">
            <CsrfField ctx={ctx} />
            <button type="submit">{t('testClockDelete')}</button>
          </form>
        </div>
      ) : (
        <form class="stack" method="post" action="/portal/sandbox/test-clock">
          <CsrfField ctx={ctx} />
          <p class="hint">{t('testClockNone')}</p>
          <div><label for="test-clock-start">{t('testClockStart')}</label><input id="test-clock-start" name="frozenTime" required value={props.now.toISOString()} /></div>
          <button class="primary" type="submit">{t('testClockCreate')}</button>
        </form>
      )}
    </section>
  );
}
