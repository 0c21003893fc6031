/** @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { normalisePastedKey } from '../../domain/portal/pasted-key.ts';
import type { Cents } from '../../domain/money.ts';
import type { PublicKeyType } from '../../domain/pix-keys.ts';
import { isDocument, type PayeePreview } from '../../services/payouts/cash-out.service.ts';
import { actorOf, memberAccountId, render, type PortalRoutes } from '../context.ts';
import { centsFromForm } from '../format.ts';
import { field, refusal } from '../forms.ts';
import type { Translate } from '../i18n.ts';
import { PayoutReview, type RecipientForm } from '../pages/payout-review.tsx';
import { KEY_TYPES, PayoutStart, type PayoutForm } from '../pages/payout-start.tsx';

/** A CPF or CNPJ as people type it (dots, dashes, slashes, spaces), as the service stores it. */
const typedDocument = (text: string) => text.replace(/[.\-/\s]/g, '').toUpperCase();

/** Sending a PIX from the portal: form, confirmation (who receives it), then the API's cash-out. */
export const payoutsRoutes: PortalRoutes = (app, s) => {
  const readForm = (body: unknown): PayoutForm => ({
    key: field(body, 'key').trim(),
    keyType: field(body, 'keyType'),
    amount: field(body, 'amount'),
    description: field(body, 'description'),
  });

  /**
   * Checks the form; answers the amount in cents and the key as the API takes it (normalised from
   * what was pasted, its type chosen or told by its form), or the problem to show.
   */
  function check(form: PayoutForm, t: Translate): { amount: Cents; keyType: PublicKeyType; key: string } | { problem: string } {
    const chosen = form.keyType === '' ? undefined : KEY_TYPES.find((k) => k === form.keyType);
    if (form.keyType !== '' && !chosen) return { problem: t('keyTypeInvalid') };
    const pasted = normalisePastedKey(form.key, chosen);
    if (!pasted.ok) {
      switch (pasted.problem) {
        case 'empty':
          return { problem: t('keyEmpty') };
        case 'ambiguous':
          return { problem: t('keyAmbiguous', { key: form.key.trim() }) };
        case 'foreignPhone':
          return { problem: t('keyForeignPhone') };
        case 'invalid':
          return { problem: t(`keyInvalid${pasted.type ?? 'PHONE'}`) };
      }
    }
    const amount = centsFromForm(form.amount);
    if (amount === undefined || amount <= 0) return { problem: t('payoutAmountInvalid') };
    return { amount: amount as Cents, keyType: pasted.type, key: pasted.key };
  }

  /** The recipient's document as typed, or the problem to show on the confirmation. */
  function checkRecipient(recipient: RecipientForm, holder: PayeePreview, t: Translate): { document: string | null } | { problem: string } {
    const document = typedDocument(recipient.document);
    if (document !== '' && !isDocument(document)) {
      return { problem: t('recipientDocumentInvalid') };
    }
    if (document === '' && holder.documentRequired) {
      return { problem: t('recipientDocumentMissing') };
    }
    return { document: document === '' ? null : document };
  }

  /** The payout already sent with this confirmation's externalId; any failure but "not found" propagates. */
  async function sentWith(accountId: number, externalId: string) {
    try {
      return await s.transactions.get(accountId, externalId);
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
    const form = readForm(request.body);
    const checked = check(form, ctx.t);
    if ('problem' in checked) return render(reply, <PayoutStart ctx={ctx} form={form} error={checked.problem} />, 400);
    let holder;
    try {
      holder = await s.cashOut.preview(accountId, checked.key, checked.keyType);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'pixKey');
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
    // The externalId is fixed here: pressing Confirm twice (or resubmitting) pays once. The review
    // carries the normalised key and its type: what is shown is what is paid.
    const reviewed = { ...form, key: checked.key, keyType: checked.keyType };
    return render(reply, <PayoutReview ctx={ctx} form={reviewed} amount={checked.amount} keyType={checked.keyType} holder={holder} externalId={randomUUID()} />);
  });

  // Step 3: the same cash-out as POST /api/pix/cash-out (limits, balance, idempotency by externalId).
  // The holder's document is the directory's (looked up again): only what the member typed is sent.
  app.post('/payouts', async (request, reply) => {
    const accountId = memberAccountId(request);
    const ctx = request.portal;
    const form = readForm(request.body);
    const checked = check(form, ctx.t);
    if ('problem' in checked) return render(reply, <PayoutStart ctx={ctx} form={form} error={checked.problem} />, 400);
    const externalId = field(request.body, 'externalId');
    if (!/^[0-9a-f-]{36}$/.test(externalId)) return render(reply, <PayoutStart ctx={ctx} form={form} error={ctx.t('reviewAgain')} />, 400);
    // Already sent with this confirmation (Confirm pressed twice): show that payment, send nothing.
    const existing = await sentWith(accountId, externalId);
    if (existing) return reply.redirect(`/portal/transactions/${existing.transaction_id}`, 303);
    const recipient: RecipientForm = { document: field(request.body, 'document').trim(), name: field(request.body, 'name').trim().slice(0, 100) };
    let holder: PayeePreview;
    try {
      holder = await s.cashOut.preview(accountId, checked.key, checked.keyType);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'pixKey');
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
    const review = (error: string, status: number) =>
      render(reply, <PayoutReview ctx={ctx} form={form} amount={checked.amount} keyType={checked.keyType} holder={holder} externalId={externalId} recipient={recipient} error={error} />, status);
    const named = checkRecipient(recipient, holder, ctx.t);
    if ('problem' in named) return review(named.problem, 400);
    try {
      const tx = await s.cashOut.create({
        accountId,
        amount: checked.amount,
        externalId,
        description: form.description || null,
        details: { key: checked.key, keyType: checked.keyType, name: recipient.name || null, document: named.document },
        scenario: null,
        // Who sent it, from where: recorded in the payout's own transaction.
        record: (trx, tx) =>
          s.audit.record(trx, actorOf(request), { action: 'payout.send', accountId, target: tx.transaction_id, after: { amount: tx.original_amount, key: checked.key } }),
      });
      return reply.redirect(`/portal/transactions/${tx.transaction_id}`, 303);
    } catch (error) {
      const refused = refusal(error, request.portal.lang, 'amount');
      // A concurrent double submit loses the race on the unique externalId: show the winner.
      const winner = await sentWith(accountId, externalId);
      if (winner) return reply.redirect(`/portal/transactions/${winner.transaction_id}`, 303);
      return render(reply, <PayoutStart ctx={ctx} form={form} error={refused.message} />, refused.status);
    }
  });
};
