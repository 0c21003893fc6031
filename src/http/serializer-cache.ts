import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

const defaultFactory = SerializerSelector();
const compiled = new Map<string, Serializer>();

/**
 * Fastify's own response serializer factory (fast-json-stringify), with each compiled serializer kept
 * for the life of the process under the JSON text of what it depends on: the route's response schema,
 * the shared schemas (`app.addSchema`) and the serializer options. One app compiles every schema
 * once anyway; a process that builds many apps from the same route modules (the test suite: one per
 * harness, 1.5 s or more of compiling each) reuses them instead.
 */
export const cachedSerializerFactory: SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = defaultFactory(externalSchemas, serializerOpts);
  const context = `${JSON.stringify(serializerOpts ?? {})}\n${JSON.stringify(externalSchemas ?? {})}\n`;
  return (route) => {
    const key = context + JSON.stringify(route.schema ?? null);
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
