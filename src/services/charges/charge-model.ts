import { randomBytes } from 'node:crypto';
import { encodeDynamicBrCode } from '../../domain/brcode/encode.ts';
import type { Cents } from '../../domain/money.ts';

/** What every charge answers about itself, whichever family made it. */
export const CHARGE_CITY = 'SAO PAULO';
export const DEFAULT_EXPIRATION_S = 86_400;
export const MIN_EXPIRATION_S = 30;
export const MAX_EXPIRATION_S = 604_800;

/** An opaque, unguessable location id: 32 hex characters (the central bank's examples look alike). */
export const newLocationId = () => randomBytes(16).toString('hex');

/** `${PUBLIC_HOST}/qr/v2/{locationId}`, without a scheme (decisions 4.2). */
export const locationUrl = (publicHost: string, locationId: string) => `${publicHost}/qr/v2/${locationId}`;

/** The location id named by a location URL of this service, or undefined when it is not one. */
export function locationIdOf(publicHost: string, url: string): string | undefined {
  const stripped = url.replace(/^https?:\/\//i, '');
  const prefix = `${publicHost}/qr/v2/`.toLowerCase();
  if (!stripped.toLowerCase().startsWith(prefix)) return undefined;
  const id = stripped.slice(prefix.length);
  return /^[0-9a-f]{32}$/.test(id) ? id : undefined;
}

export function chargeBrCode(input: { publicHost: string; locationId: string; amount: Cents; merchantName: string }): string {
  return encodeDynamicBrCode({
    url: locationUrl(input.publicHost, input.locationId),
    amount: input.amount,
    merchantName: input.merchantName,
    merchantCity: CHARGE_CITY,
  });
}
