import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';

/** The Fastify instance every route registers on: TypeBox schemas give validation and types. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One endpoint: a file exports one of these, and its family's index lists it; `c` is its family's context (route-contexts.ts). */
export type RouteModule<Context> = (app: App, c: Context) => void;
