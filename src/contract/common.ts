import { Type, type Static, type TSchema } from 'typebox';
import { MC_NAME_PATTERN } from './values.ts';

/** Minecraft Java names: 3 to 16 letters, digits or underscores. */
export const McName = Type.String({ pattern: MC_NAME_PATTERN, minLength: 3, maxLength: 16, description: 'Minecraft name' });
export const Id = Type.String({ format: 'uuid', maxLength: 36 });
/** An instant, written as ISO 8601 (`2026-11-28T13:04:46.000Z`). */
export const DateTime = Type.String({ format: 'date-time' });
/** `t`, or null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Localized = (max: number) => Type.Object({ fr: Type.String({ minLength: 1, maxLength: max }), en: Type.String({ minLength: 1, maxLength: max }) }, { additionalProperties: false });

/** Paging of every list: 0-based `page`, `size` up to 100, and `offset` (items to skip) that wins over `page`. */
export const PageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

export const Page = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), totalElements: Type.Integer(), page: Type.Integer(), size: Type.Integer() });
export interface Page<T> {
  data: T[];
  totalElements: number;
  page: number;
  size: number;
}

export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });

/** application/problem+json body of every error. */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  code: Type.Optional(Type.String({ description: "The error's key (`friends.self`, `notFound.user`): the same in every language, for clients to branch on." })),
  detail: Type.Optional(Type.String({ description: "What went wrong, in the caller's language (the saved locale, else the locale cookie, else Accept-Language, else French)." })),
  params: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description: "What fills the key's text (instants in ISO 8601, UTC): a client shows its own words with them, times in its reader's zone; `detail` gives them in UTC.",
    }),
  ),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.String(),
        message: Type.String({ description: "Why the field was refused, in the caller's language." }),
        code: Type.Optional(Type.String({ description: "The reason's key (`validation.required`), the same in every language." })),
      }),
    ),
  ),
});
export type Problem = Static<typeof Problem>;

/**
 * A response in named media types: a PDF beside the JSON, an image, an event stream. Fastify
 * serializes each JSON form by its own schema and sends bytes as they are.
 */
export const Media = (description: string, content: Record<string, TSchema>) => ({
  description,
  content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
});
/** Bytes of one media type (an image, a PDF). */
export const Bytes = (mediaType: string) => Type.String({ contentMediaType: mediaType });

/** One of a fixed list of strings (Type.Enum keeps the literal types, a mapped Union would not). */
export const literals = <const T extends string[]>(values: readonly [...T]) => Type.Enum(values);

/** An ISO 4217 currency code. */
export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });
