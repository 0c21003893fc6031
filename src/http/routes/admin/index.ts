import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { createAccountRoute } from './create-account.route.ts';
import { createCredentialsRoute } from './create-credentials.route.ts';
import { createOperatorRoute } from './create-operator.route.ts';
import { inviteMemberRoute } from './invite-member.route.ts';
import { deleteWebhookRoute } from './delete-webhook.route.ts';
import { getAccountRoute } from './get-account.route.ts';
import { getWebhookSecretRoute } from './get-webhook-secret.route.ts';
import { ledgerCheckRoute } from './ledger-check.route.ts';
import { networkStatusRoute } from './network-status.route.ts';
import { runStatementCheckRoute } from './statement-check.route.ts';
import { assignSuspenseRoute, listSuspenseRoute } from './suspense.routes.ts';
import { listAccountWebhooksRoute } from './list-account-webhooks.route.ts';
import { registerAccountWebhookRoute } from './register-account-webhook.route.ts';
import { registerCertificateRoute } from './register-certificate.route.ts';
import { revokeCertificateRoute } from './revoke-certificate.route.ts';
import { updateFeesRoute } from './update-fees.route.ts';
import { updateLimitsRoute } from './update-limits.route.ts';
import { updateSplitFrequencyRoute } from './update-split-frequency.route.ts';
import { listAccountsRoute } from './list-accounts.route.ts';
import { listCredentialsRoute } from './list-credentials.route.ts';
import { revokeCredentialRoute } from './revoke-credential.route.ts';
import { listMembersRoute } from './list-members.route.ts';
import { removeMemberRoute } from './remove-member.route.ts';
import { listOperatorsRoute } from './list-operators.route.ts';
import { listWebhookDeliveriesRoute } from './list-webhook-deliveries.route.ts';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret.route.ts';
import { sendTestWebhookRoute } from './send-test-webhook.route.ts';
import { rotateSigningKeyRoute } from './rotate-signing-key.route.ts';
import { getAccountEventRoute, listAccountEventsRoute, replayAccountDeliveriesRoute, streamAccountEventsRoute } from './account-events.routes.ts';

/** Operator routes (decisions section 2); every one needs the admin token. */
export const adminRoutes: RouteModule<AdminContext>[] = [
  createAccountRoute,
  getAccountRoute,
  registerCertificateRoute,
  revokeCertificateRoute,
  createCredentialsRoute,
  updateLimitsRoute,
  updateFeesRoute,
  updateSplitFrequencyRoute,
  registerAccountWebhookRoute,
  listAccountWebhooksRoute,
  deleteWebhookRoute,
  getWebhookSecretRoute,
  ledgerCheckRoute,
  networkStatusRoute,
  listSuspenseRoute,
  assignSuspenseRoute,
  runStatementCheckRoute,
  createOperatorRoute,
  inviteMemberRoute,
  // Issue 21 item 3: what the portal's back office does, scriptable.
  listAccountsRoute,
  listCredentialsRoute,
  revokeCredentialRoute,
  listMembersRoute,
  removeMemberRoute,
  listOperatorsRoute,
  listWebhookDeliveriesRoute,
  rotateWebhookSecretRoute,
  sendTestWebhookRoute,
  rotateSigningKeyRoute,
  // Issue 29: the events API and replay, for operators (the stream before /:eventId).
  listAccountEventsRoute,
  streamAccountEventsRoute,
  getAccountEventRoute,
  replayAccountDeliveriesRoute,
];
