import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';

export const openapiRoute: RouteModule<SystemContext> = (app) =>
  app.get(
    '/openapi.json',
    {
      schema: {
        tags: ['system'],
        summary: 'This OpenAPI 3.1 document',
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'The OpenAPI 3.1 document' }) },
      },
    },
    async () => app.swagger(),
  );
