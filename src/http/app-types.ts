import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Container } from '../container.ts';

/** The Fastify instance every route registers on: TypeBox schemas give validation and types. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One endpoint: a file exports one of these, and its family's index lists it. */
export type RouteModule = (app: App, c: Container) => void;
