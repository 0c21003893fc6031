// Tables owned by the charges feature; its migrations live in src/db/migrations.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ChargeTables {}
