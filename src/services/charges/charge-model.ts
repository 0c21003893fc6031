import { randomBytes } from 'node:crypto';

export { CHARGE_CITY, locationIdOf, locationUrl } from '../../domain/brcode/charge-code.ts';

/** What every charge answers about itself, whichever family made it. */
export const DEFAULT_EXPIRATION_S = 86_400;
export const MIN_EXPIRATION_S = 30;
export const MAX_EXPIRATION_S = 604_800;

/** An opaque, unguessable location id: 32 hex characters (the central bank's examples look alike). */
export const newLocationId = () => randomBytes(16).toString('hex');
