import * as admin from './messages/admin.ts';
import * as certificates from './messages/certificates.ts';
import * as charges from './messages/charges.ts';
import * as common from './messages/common.ts';
import * as credentials from './messages/credentials.ts';
import * as payouts from './messages/payouts.ts';
import * as sandbox from './messages/sandbox.ts';
import * as suspense from './messages/suspense.ts';
import * as transactions from './messages/transactions.ts';
import * as webhooks from './messages/webhooks.ts';
import * as events from './messages/events.ts';

/** The portal's two languages: pt-BR (default) and English. */
export type Lang = 'pt-BR' | 'en';
export const LANG_COOKIE = 'pix_portal_lang';
/** The locale each language writes dates in (English dates day-first, as in Brazil). */
export const LOCALES: Record<Lang, string> = { 'pt-BR': 'pt-BR', en: 'en-GB' };

/**
 * One catalogue per area of the portal, each with its English and Portuguese messages side by side;
 * a key belongs to one area only (test/portal/i18n.test.ts checks that and that both languages have
 * every key). Every word a page shows comes from here through `t()`.
 */
export const CATALOGUES = { common, transactions, webhooks, credentials, certificates, payouts, charges, admin, sandbox, suspense, events };

const en = { ...common.en, ...transactions.en, ...webhooks.en, ...credentials.en, ...certificates.en, ...payouts.en, ...charges.en, ...admin.en, ...sandbox.en, ...suspense.en, ...events.en };

export type MessageKey = keyof typeof en;

const pt: Record<MessageKey, string> = {
  ...common.ptBR,
  ...transactions.ptBR,
  ...webhooks.ptBR,
  ...credentials.ptBR,
  ...certificates.ptBR,
  ...payouts.ptBR,
  ...charges.ptBR,
  ...admin.ptBR,
  ...sandbox.ptBR,
  ...suspense.ptBR,
  ...events.ptBR,
};

const tables: Record<Lang, Record<MessageKey, string>> = { en, 'pt-BR': pt };

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const table = tables[lang];
  return (key, vars) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? `{${name}}`));
}

/** A language the portal speaks. */
export const isLang = (value: unknown): value is Lang => value === 'en' || value === 'pt-BR';

/** The remembered choice wins; otherwise the first of Accept-Language's languages we have, by q. */
export function chooseLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(cookie)) return cookie;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag: tag.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'pt' || tag.startsWith('pt-')) return 'pt-BR';
  }
  return 'pt-BR';
}
