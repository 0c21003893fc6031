import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';

export const openapiRoute: RouteModule = (app) =>
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
