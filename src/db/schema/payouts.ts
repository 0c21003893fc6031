// Tables owned by the payouts feature; its migrations live in src/db/migrations.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PayoutTables {}
