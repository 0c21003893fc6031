/** @jsxImportSource hono/jsx */
import type { PortalRoutes } from '../context.ts';

export const adminRoutes: PortalRoutes = (_app, _c) => {};
