/** Who sent money that arrived (a charge paid, a PIX to a key, a payout returned): as notified and as stored. */
export interface Payer {
  name: string;
  document: string;
  ispb: string;
}
