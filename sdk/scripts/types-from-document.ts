import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from the service\'s OpenAPI document by openapi-typescript: run `npm run sdk:types`, do not edit.\n';

/** The TypeScript types (`paths`, `components`, `webhooks`) of an OpenAPI document. */
export async function typesFromDocument(document: object): Promise<string> {
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER + astToString(ast);
}
