import { Type, type Static } from 'typebox';
import { Id, McName } from './common.ts';
import { locales } from './messages.ts';

export const userMcUUIDRequest = Type.Object({ mcName: McName }, { $id: 'userMcUUIDRequest', additionalProperties: false });

export const userCreditAddRequest = Type.Object(
  {
    userId: Id,
    amount: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, not: { const: 0 }, description: 'Credits; negative for a correction' }),
    reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why, shown in the ledger and kept in the audit log' }),
  },
  { $id: 'userCreditAddRequest', additionalProperties: false },
);
export type UserCreditAddRequest = Static<typeof userCreditAddRequest>;

export const User = Type.Object({
  id: Id,
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  mcUuid: Type.Union([Type.String(), Type.Null()]),
  balance: Type.Integer(),
  roles: Type.Array(Type.String()),
  /** The language notices and ledger lines are rendered in: the one the web app last showed (its locale cookie). */
  locale: Type.Enum(locales),
});
export type User = Static<typeof User>;

export type Role = 'staff' | 'support';

export const McUuidParams = Type.Object({ uuid: Id }, { additionalProperties: false });

/** A Minecraft account: head is the face of its skin, a base64 PNG. */
export const MinecraftAccountInfo = Type.Object({ uuid: Id, name: Type.String(), head: Type.String({ contentEncoding: 'base64', contentMediaType: 'image/png' }) });
export type MinecraftAccountInfo = Static<typeof MinecraftAccountInfo>;

export const McLink = Type.Object({ mcUuid: Id, mcName: Type.String() });
export type McLink = Static<typeof McLink>;
