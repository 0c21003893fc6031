import { DomainError } from '../domain/errors/domain-error.ts';
import type { PixNetwork } from './pix-network.ts';

/**
 * Production without a provider adapter: this service ships only the sandbox simulator, so any
 * payment that would leave the service answers PROVIDER_UNAVAILABLE (500, nothing stored, no money
 * held, as `submit` runs inside the payout's transaction). On-us payments never reach the network
 * and keep working. A real provider is another implementation of PixNetwork.
 */
export const unconfiguredNetwork: PixNetwork = {
  ledgerAccount: 'network:unconfigured',
  async lookupKey() {
    throw new DomainError('PROVIDER_UNAVAILABLE', { provider: 'none' }, 'No PIX network provider is configured in production mode.');
  },
  async submit() {
    throw new DomainError('PROVIDER_UNAVAILABLE', { provider: 'none' }, 'No PIX network provider is configured in production mode.');
  },
  // Without a provider no infraction notice can arrive; there is nothing to subscribe to.
  subscribeInfractions() {},
  async outcome(payment) {
    // Never reached (nothing is submitted); an unknown state stays pending, never success.
    return { status: 'pending', checkAgainAt: new Date(payment.submittedAt.getTime() + 60_000) };
  },
};
