import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { createDictTransferRoute } from './create-dict-transfer.route.ts';
import { getDictTransferRoute } from './get-dict-transfer.route.ts';
import { getDevolucaoRoute } from './get-devolucao.route.ts';
import { putDevolucaoRoute } from './put-devolucao.route.ts';
import { getCobRoute } from './get-cob.route.ts';
import { patchCobRoute } from './patch-cob.route.ts';
import { putCobRoute } from './put-cob.route.ts';
import { getBalancesRoute } from './get-balances.route.ts';

/** The central-bank-compatible family: errors in the short form. */
export const bacenRoutes: RouteModule<BacenContext>[] = [getBalancesRoute, createDictTransferRoute, getDictTransferRoute, putCobRoute, getCobRoute, patchCobRoute, putDevolucaoRoute, getDevolucaoRoute];
