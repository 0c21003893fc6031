/** @jsxImportSource hono/jsx */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import type { AuditEntry } from '../../services/audit/audit-log.ts';
import { brl, centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import { SandboxToolsPage } from '../pages/sandbox-tools.tsx';

/**
 * Sandbox tools (sandbox mode only): the same services the /sandbox routes call, driven from the
 * member's dashboard.
 */
export const sandboxRoutes: PortalRoutes = (app, s) => {
  if (!s.sandboxMode) return;

  const show = async (request: FastifyRequest, reply: FastifyReply, props: { notice?: string; error?: string } = {}, status = 200) => {
    const accountId = memberAccountId(request);
    const [pending, received, testClock] = await Promise.all([s.reads.pendingCharges(accountId, 20), s.reads.receivedPix(accountId, 20), s.testClocks.ofAccount(accountId)]);
    // The shared sandbox clock's card shows the service's time; the account's own clock has its card.
    return render(reply, <SandboxToolsPage ctx={request.portal} pending={pending} received={received} now={s.serviceClock.now()} testClock={testClock} {...props} />, status);
  };
  /**
   * Runs a tool; once the simulated network has acted (in its own transaction: it is the outside
   * world), who used the tool is recorded in the audit log.
   */
  const attempt = async (request: FastifyRequest, reply: FastifyReply, action: () => Promise<{ notice: string; audit: AuditEntry }>) => {
    try {
      const done = await action();
      await s.audit.recordNow(actorOf(request), done.audit);
      return show(request, reply, { notice: done.notice });
    } catch (error) {
      const refused = refusal(error, request.portal.lang);
      return show(request, reply, { error: refused.message }, refused.status);
    }
  };

  app.get('/sandbox', (request, reply) => show(request, reply));

  app.post('/sandbox/deposit', async (request, reply) => {
    const accountId = memberAccountId(request);
    const amount = centsFromForm(field(request.body, 'amount'));
    if (amount === undefined || amount <= 0) return show(request, reply, { error: 'amount must be an amount in reais with at most 2 decimals' }, 400);
    return attempt(request, reply, async () => {
      const tx = await s.sandboxNetwork!.sendPix(accountId, amount as Cents);
      return {
        notice: request.portal.t('receivedAmount', { amount: brl(amount) }),
        audit: { action: 'sandbox.pix_in', accountId, target: tx.transaction_id, after: { amount } },
      };
    });
  });

  app.post('/sandbox/pay', async (request, reply) => {
    const accountId = memberAccountId(request);
    return attempt(request, reply, async () => {
      const tx = await s.sandboxNetwork!.payCharge(accountId, field(request.body, 'charge'), {});
      return {
        notice: request.portal.t('chargePaid', { amount: brl(tx.original_amount) }),
        audit: { action: 'sandbox.charge_paid', accountId, target: tx.transaction_id, after: { amount: tx.original_amount } },
      };
    });
  });

  app.post('/sandbox/med', async (request, reply) => {
    const accountId = memberAccountId(request);
    return attempt(request, reply, async () => {
      const endToEndId = field(request.body, 'endToEndId');
      await s.sandboxNetwork!.reportInfraction({ accountId, endToEndId, cause: 'OTHER', description: null });
      return { notice: request.portal.t('medOpened'), audit: { action: 'sandbox.med_opened', accountId, target: endToEndId } };
    });
  });

  app.post('/sandbox/clock', async (request, reply) => {
    const accountId = memberAccountId(request);
    const minutes = Number(field(request.body, 'minutes'));
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 525_600) return show(request, reply, { error: 'minutes must be a whole number between 1 and 525600' }, 400);
    const advance = s.advanceSandboxClock;
    if (!advance) throw new DomainError('NOT_FOUND');
    return attempt(request, reply, async () => {
      await advance(minutes * 60);
      return {
        notice: request.portal.t('clockMoved', { minutes }),
        audit: { action: 'sandbox.clock', accountId, after: { minutes } },
      };
    });
  });

  // The account's own test clock (issue 29 item 3): the same service as /sandbox/test-clocks.
  app.post('/sandbox/test-clock', async (request, reply) => {
    const accountId = memberAccountId(request);
    const frozenTime = field(request.body, 'frozenTime').trim();
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(frozenTime) || Number.isNaN(Date.parse(frozenTime))) {
      return show(request, reply, { error: 'frozenTime must be an ISO 8601 date-time with a time zone' }, 400);
    }
    return attempt(request, reply, async () => {
      const clock = await s.testClocks.create({ kind: 'account', accountId }, { frozenTime: new Date(frozenTime), accountIds: [accountId] });
      return { notice: request.portal.t('testClockCreated'), audit: { action: 'sandbox.test_clock_create', accountId, target: clock.id, after: { frozenTime: clock.frozenTime } } };
    });
  });

  app.post('/sandbox/test-clock/advance', async (request, reply) => {
    const accountId = memberAccountId(request);
    const minutes = Number(field(request.body, 'minutes'));
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 525_600) return show(request, reply, { error: 'minutes must be a whole number between 1 and 525600' }, 400);
    return attempt(request, reply, async () => {
      const clock = await s.testClocks.ofAccount(accountId);
      if (!clock) throw new DomainError('NOT_FOUND', undefined, 'This account is not on a test clock');
      const to = new Date(Date.parse(clock.frozenTime) + minutes * 60_000);
      await s.testClocks.advance({ kind: 'account', accountId }, clock.id, to);
      // The page answers once what fell due has happened (the advance runs in this process).
      await s.testClocks.settled();
      return { notice: request.portal.t('testClockAdvanced', { minutes }), audit: { action: 'sandbox.test_clock_advance', accountId, target: clock.id, after: { frozenTime: to.toISOString() } } };
    });
  });

  app.post('/sandbox/test-clock/delete', async (request, reply) => {
    const accountId = memberAccountId(request);
    return attempt(request, reply, async () => {
      const clock = await s.testClocks.ofAccount(accountId);
      if (!clock) throw new DomainError('NOT_FOUND', undefined, 'This account is not on a test clock');
      await s.testClocks.remove({ kind: 'account', accountId }, clock.id);
      return { notice: request.portal.t('testClockDeleted'), audit: { action: 'sandbox.test_clock_delete', accountId, target: clock.id } };
    });
  });
};
