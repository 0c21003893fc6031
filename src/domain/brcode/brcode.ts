import type { Cents } from '../money.ts';

/** Shared by parse.ts and encode.ts: what a Pix BR Code carries once checked. */
export interface BrCode {
  /** static: a key in 26-01, paid as a transfer to that key; dynamic: a location URL in 26-25. */
  kind: 'static' | 'dynamic';
  key?: string;
  /** 26-25, without scheme (the payer's bank fetches it over HTTPS). */
  url?: string;
  /** 26-02, free text for the payer. */
  additionalInfo?: string;
  /** 54; absent when the payer chooses the amount. */
  amount?: Cents;
  merchantName: string;
  merchantCity: string;
  /** 62-05 exactly as written, including the `***` placeholder. */
  txid?: string;
  /** 01: 11 reusable, 12 single use. */
  pointOfInitiation?: '11' | '12';
  /** 26-03, ISPB of the withdrawal service facilitator. */
  fss?: string;
  raw: string;
}

export const PIX_GUI = 'br.gov.bcb.pix';
export const MAX_BRCODE_LENGTH = 512;
export const MAX_NAME_LENGTH = 25;
export const MAX_CITY_LENGTH = 15;
export const MAX_KEY_OR_URL_LENGTH = 77;
export const MAX_TXID_LENGTH = 25;
