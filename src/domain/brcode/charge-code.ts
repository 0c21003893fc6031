import type { Cents } from '../money.ts';
import { encodeDynamicBrCode } from './encode.ts';

/** The city every charge of this service names (BR Code field 60). */
export const CHARGE_CITY = 'SAO PAULO';

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

/** The dynamic BR Code of a charge served at one of our locations. */
export function chargeBrCode(input: { publicHost: string; locationId: string; amount: Cents; merchantName: string }): string {
  return encodeDynamicBrCode({
    url: locationUrl(input.publicHost, input.locationId),
    amount: input.amount,
    merchantName: input.merchantName,
    merchantCity: CHARGE_CITY,
  });
}
