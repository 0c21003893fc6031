import { DomainError } from '../domain/errors/domain-error.ts';
import type { PixNetwork } from './pix-network.ts';

const unavailable = () => new DomainError('PROVIDER_UNAVAILABLE', { provider: 'none' }, 'No PIX network provider is configured in production mode.');

/**
 * Production without a provider: nothing can leave or enter through a network. Key look-ups and
 * charge registrations answer PROVIDER_UNAVAILABLE at once (500, nothing stored, no money held);
 * a payment that needs no look-up (a foreign QR code) is refused by the network's answer and its
 * hold released. On-us payments never reach the network and keep working.
 */
export const unconfiguredNetwork: PixNetwork = {
  ledgerAccount: 'network:unconfigured',
  chargeRules: { provider: 'none', minExpirationSeconds: 0 },
  async lookupKey() {
    throw unavailable();
  },
  async submitPayments(orders) {
    return orders.map(() => ({ status: 'rejected', errorCode: 'PROVIDER_UNAVAILABLE', errorMessage: 'Nenhum provedor PIX está configurado.' }));
  },
  async paymentStatuses(orders) {
    return orders.map(() => ({ status: 'not_found' }));
  },
  async registerCharge() {
    throw unavailable();
  },
  // Without a provider no notice can arrive; there is nothing to subscribe to.
  subscribe() {},
};
