import { createHash } from 'node:crypto';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's schema compilers for our routes, compiled once per process.
 *
 * Compiling every route's validators and response serializers is most of what `app.ready()`
 * costs (about 0.25 s for our routes). A process that builds its app again with the same schemas,
 * as each API test does, takes the compiled functions from here; they are pure functions of their
 * schema and the shared schemas, which are both in the key.
 */
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}
const compiled = new Map<string, unknown>();
const digest = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64');

function once<F>(kind: string, shared: unknown, compile: (route: RouteSchema) => F): (route: RouteSchema) => F {
  const sharedKey = `${kind}:${digest(shared)}`;
  return (route) => {
    const key = `${sharedKey}:${route.httpPart ?? ''}:${route.httpStatus ?? ''}:${route.contentType ?? ''}:${digest(route.schema)}`;
    let fn = compiled.get(key) as F | undefined;
    if (!fn) compiled.set(key, (fn = compile(route)));
    return fn;
  };
}

const ajvPool = AjvCompiler();
type PoolArgs = Parameters<typeof ajvPool>;
type ValidatorRoute = Parameters<ReturnType<typeof ajvPool>>[0] & { httpPart?: string };
type Validators = ReturnType<typeof ajvPool>;

/**
 * Query strings and path parameters arrive as text, so their scalars are coerced ("2" is 2). A JSON
 * body has real types: coercing it would store `[2]` as 2, `true` as 1 and `null` as 0, so a body
 * of the wrong type answers 400 instead.
 */
export function validatorsByPart(externalSchemas: PoolArgs[0], options: { customOptions?: object } = {}) {
  const coercing = ajvPool(externalSchemas, options as PoolArgs[1]);
  const strict = ajvPool(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } } as PoolArgs[1]);
  const byPart = (route: ValidatorRoute) => (route.httpPart === 'body' ? strict : coercing)(route);
  return once('validator', [externalSchemas, options], byPart as (route: RouteSchema) => ReturnType<Validators>) as unknown as Validators;
}

const serializerPool = SerializerSelector();
type SerializerArgs = Parameters<typeof serializerPool>;
type Serializers = ReturnType<typeof serializerPool>;

export function serializers(externalSchemas: SerializerArgs[0], options: SerializerArgs[1]): Serializers {
  const compile = serializerPool(externalSchemas, options) as unknown as (route: RouteSchema) => ReturnType<Serializers>;
  return once('serializer', [externalSchemas, options], compile) as unknown as Serializers;
}
