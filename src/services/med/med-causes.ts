/** The causes of a MED (decisions 4.6); OPERATIONAL_FLAW refunds as MED_OPERACIONAL, the rest as MED_FRAUDE. */
export const MED_CAUSES = [
  'UNAUTHORIZED_TRANSACTION',
  'SOCIAL_ENGINEERING',
  'ACCOUNT_TAKEOVER',
  'SCAM',
  'COERCION',
  'OPERATIONAL_FLAW',
  'OTHER',
] as const;

export type MedCause = (typeof MED_CAUSES)[number];

export const refundNatureOf = (cause: string | null): 'MED_OPERACIONAL' | 'MED_FRAUDE' =>
  cause === 'OPERATIONAL_FLAW' ? 'MED_OPERACIONAL' : 'MED_FRAUDE';
