import { ValidationError } from '../domain/errors/domain-error.ts';
import { basisPointsFromPercent, centsFromNumber, partsPerMillionFromPercent, type Cents } from '../domain/money.ts';

/** Converts a schema-validated BRL number to cents at the HTTP edge; never rounds. */
export function toCents(value: number, field: string): Cents {
  const c = centsFromNumber(value);
  if (c === undefined) throw new ValidationError([`${field} must be a number with at most 2 decimal places`]);
  return c;
}

export function toBasisPoints(value: number, field: string): number {
  const bp = basisPointsFromPercent(value);
  if (bp === undefined) throw new ValidationError([`${field} must be a percentage from 0 to 100 with at most 2 decimal places`]);
  return bp;
}

/** A split percentage (up to 4 decimals, at most 100) as parts per million of the gross amount. */
export function toPartsPerMillion(value: number, field: string): number {
  const ppm = partsPerMillionFromPercent(value);
  if (ppm === undefined) throw new ValidationError([`${field} must be a percentage up to 100 with at most 4 decimal places`]);
  return ppm;
}
