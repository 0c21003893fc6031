import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { Document, ParticipantIspb } from '../../schemas/common.ts';
import { hasAdminToken } from '../../plugins/admin-auth.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { DICT_KEY_TYPES } from '../../../domain/closed-lists.ts';

/** Both spellings: the DICT's own types and the public family's DOCUMENT and RANDOM. */
const KeyTypes = [...DICT_KEY_TYPES, 'DOCUMENT', 'RANDOM'] as const;

export const registerDictKeyRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/dict/keys',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Register a key in the simulated key directory (a holder at another bank)',
        body: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token (not needed otherwise)' })),
          key: Type.String({ minLength: 1, maxLength: 77 }),
          keyType: Type.Union(KeyTypes.map((k) => Type.Literal(k))),
          name: Type.String({ minLength: 1, maxLength: 100 }),
          document: Document(),
          ispb: ParticipantIspb(),
          branch: Type.Optional(Type.String({ maxLength: 10 })),
          account: Type.Optional(Type.String({ maxLength: 20 })),
        }, { 'x-pix-key': { key: 'key', type: 'keyType', family: 'directory' } }),
        response: {
          201: Type.Object({
            key: Type.String(),
            keyType: Type.String(),
            name: Type.String(),
            document: Type.String(),
            ispb: Type.String(),
            bankName: Type.String(),
            branch: Type.Union([Type.String(), Type.Null()]),
            account: Type.Union([Type.String(), Type.Null()]),
          }),
        },
      },
    },
    async (request, reply) => {
      // The directory is the whole simulated network's: any sandbox caller may register a holder.
      if (!hasAdminToken(request, c.config.adminToken)) await sandboxAccountId(request, c, undefined);
      const { accountId: _ignored, ...input } = request.body;
      return reply.code(201).send(await c.payouts.dictKeys.register(input));
    },
  );
