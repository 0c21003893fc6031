import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponsesAgainstDocument, takeResponseViolations } from '../../src/http/openapi/response-check.ts';

/**
 * The suite's contract check itself (test/setup/response-contract.ts fails a test on any violation it
 * records): it must notice an undeclared status and a body its schema refuses, and nothing else.
 */
describe('the response check every test runs under', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    checkResponsesAgainstDocument(app);
    app.get('/thing', {
      schema: {
        querystring: { type: 'object', properties: { answer: { type: 'string' } } },
        response: {
          200: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          404: { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: ['NOT_FOUND'] } } },
        },
      },
      handler: async (request, reply) => {
        const answer = (request.query as { answer?: string }).answer;
        if (answer === 'teapot') return reply.code(418 as 200).send({ name: 'teapot' });
        // Serializable, but outside the declared enum.
        if (answer === 'wrong-shape') return reply.code(404).send({ code: 'GONE_FISHING' });
        return { name: 'declared' };
      },
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('records nothing for a declared status with a body its schema accepts', async () => {
    expect((await app.inject('/thing')).statusCode).toBe(200);
    expect(takeResponseViolations()).toEqual([]);
  });

  it('records a status the route does not declare', async () => {
    expect((await app.inject('/thing?answer=teapot')).statusCode).toBe(418);
    expect(takeResponseViolations()).toEqual(['GET /thing answered 418, a status its document does not declare']);
  });

  it('records a body its declared schema refuses', async () => {
    expect((await app.inject('/thing?answer=wrong-shape')).statusCode).toBe(404);
    const [violation, ...more] = takeResponseViolations();
    expect(more).toEqual([]);
    expect(violation).toMatch(/^GET \/thing answered 404 with a body its schema refuses: .*code/);
  });
});
