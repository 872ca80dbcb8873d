import { Type, type Static, type TSchema } from 'typebox';

/**
 * A reference to a body schema registered by name (see contract/index.ts), so the OpenAPI document
 * lists it under components.schemas with its historical name, while handlers keep its static type.
 */
export function named<T extends TSchema & { $id?: string }>(schema: T) {
  if (!schema.$id) throw new Error('named() needs a schema with an $id');
  return Type.Unsafe<Static<T>>({ $ref: `${schema.$id}#` });
}
