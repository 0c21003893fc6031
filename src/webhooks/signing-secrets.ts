/** An account's signing secrets as stored (`webhook_secrets`, migration 975). */
export interface StoredSigningSecrets {
  secret: string;
  previous_secret: string | null;
  previous_valid_until: Date | string | null;
}

/**
 * The secrets that sign a delivery made at `now` (service clock): the current one first, then the one
 * the last rotation replaced while its overlap lasts (WEBHOOK_SECRET_OVERLAP_S after the rotation).
 */
export function signingSecretsAt(row: StoredSigningSecrets, now: Date): string[] {
  const until = row.previous_valid_until === null ? undefined : new Date(row.previous_valid_until);
  return row.previous_secret !== null && until !== undefined && now.getTime() < until.getTime() ? [row.secret, row.previous_secret] : [row.secret];
}
