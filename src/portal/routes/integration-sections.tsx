/** @jsxImportSource hono/jsx */
import type { PageContext } from '../layout.tsx';
import { CertificatesSection } from '../pages/certificates-section.tsx';
import { CredentialsSection } from '../pages/credentials-section.tsx';
import { WebhooksSection } from '../pages/webhooks-section.tsx';
import type { PortalServices } from '../portal-services.ts';

/** The account's integration settings, shown on the member's pages and on the admin's account page. */
export type Section = 'webhooks' | 'credentials' | 'certificates';
export const SECTIONS: Section[] = ['webhooks', 'credentials', 'certificates'];

/** One section with its rows read through its service; `extra` is a form's result (a secret, an error). */
export async function IntegrationSection(props: { s: PortalServices; ctx: PageContext; accountId: number; base: string; section: Section; extra?: Record<string, unknown> }) {
  const { s, ctx, base } = props;
  const extra = props.extra ?? {};
  if (props.section === 'webhooks') return <WebhooksSection ctx={ctx} base={base} hooks={await s.webhooks.list(props.accountId)} {...extra} />;
  if (props.section === 'credentials') return <CredentialsSection ctx={ctx} base={base} rows={await s.credentials.list(props.accountId)} {...extra} />;
  return <CertificatesSection ctx={ctx} base={base} rows={await s.certificates.list(props.accountId)} now={s.clock.now()} {...extra} />;
}
