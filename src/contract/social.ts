import { Type, type Static } from 'typebox';
import { Id, McName, Nullable } from './common.ts';

const GroupName = Type.String({ minLength: 1, maxLength: 50 });

export const friendAdd = Type.Object({ userId: Id }, { $id: 'friendAdd', additionalProperties: false });
export const friendMinecraftAdd = Type.Object({ mcName: McName }, { $id: 'friendMinecraftAdd', additionalProperties: false });
export const friendRequestUpdate = Type.Object({ requestId: Id, accept: Type.Boolean() }, { $id: 'friendRequestUpdate', additionalProperties: false });
export const friendGroupCreateRequest = Type.Object({ name: GroupName }, { $id: 'friendGroupCreateRequest', additionalProperties: false });
export const friendGroupUpdate = Type.Object({ name: GroupName }, { $id: 'friendGroupUpdate', additionalProperties: false });
export const friendGroupMemberUpdate = Type.Object({ userId: Id }, { $id: 'friendGroupMemberUpdate', additionalProperties: false });
export const friendGroupMemberPseudoAdd = Type.Object({ mcName: McName }, { $id: 'friendGroupMemberPseudoAdd', additionalProperties: false });
/** Names are checked one by one and reported per name, so the array items are only bounded here. */
export const friendGroupMemberImport = Type.Object(
  { mcNames: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 200 }) },
  { $id: 'friendGroupMemberImport', additionalProperties: false },
);
export const blockListAdd = Type.Object({ userId: Id }, { $id: 'blockListAdd', additionalProperties: false });

const Time = Type.String({ format: 'date-time' });

/** Another user as the social screens show them: platform name and linked Minecraft account. */
export const Player = Type.Object({ id: Id, name: Type.String(), mcUuid: Nullable(Id), mcName: Nullable(Type.String()) });
export type Player = Static<typeof Player>;

/** GET /v1/user/search: a BlockHost name, whole or its first three characters or more. */
export const UserSearchQuery = Type.Object({ q: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const UserSearchResult = Type.Object({ data: Type.Array(Player) });
export type UserSearchResult = Static<typeof UserSearchResult>;

export const Friend = Type.Object({ ...Player.properties, since: Time });
export type Friend = Static<typeof Friend>;

export const FriendParams = Type.Object({ friendId: Id }, { additionalProperties: false });

export const FriendRequest = Type.Object({
  id: Id,
  direction: Type.Union([Type.Literal('INCOMING'), Type.Literal('OUTGOING')]),
  user: Player,
  createdAt: Time,
});
export type FriendRequest = Static<typeof FriendRequest>;

/** PENDING: a request was sent. ACCEPTED: it crossed theirs, so both are friends now. */
export const FriendAddResult = Type.Object({
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('ACCEPTED')]),
  requestId: Nullable(Id),
  user: Player,
});
export type FriendAddResult = Static<typeof FriendAddResult>;

/** The recipient accepts or declines; the sender may only withdraw (accept: false). */
export const FriendRequestAnswer = Type.Object({ status: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('DECLINED'), Type.Literal('CANCELLED')]) });
export type FriendRequestAnswer = Static<typeof FriendRequestAnswer>;

export const FriendGroup = Type.Object({ id: Id, name: Type.String(), memberCount: Type.Integer(), createdAt: Time, updatedAt: Time });
export type FriendGroup = Static<typeof FriendGroup>;

/** A friend (userId and name set) or a bare Minecraft name (userId and name null). */
export const FriendGroupMember = Type.Object({ id: Id, userId: Nullable(Id), name: Nullable(Type.String()), mcName: Nullable(Type.String()), addedAt: Time });
export type FriendGroupMember = Static<typeof FriendGroupMember>;

export const FriendGroupDetail = Type.Object({ ...FriendGroup.properties, members: Type.Array(FriendGroupMember) });
export type FriendGroupDetail = Static<typeof FriendGroupDetail>;

const ImportResult = Type.Union([Type.Literal('ADDED'), Type.Literal('ALREADY_MEMBER'), Type.Literal('INVALID'), Type.Literal('BLOCKED')]);
export type ImportResult = Static<typeof ImportResult>;
export const FriendGroupImportReport = Type.Object({
  added: Type.Integer(),
  results: Type.Array(Type.Object({ mcName: Type.String(), result: ImportResult })),
});
export type FriendGroupImportReport = Static<typeof FriendGroupImportReport>;

export const BlockedUser = Type.Object({ ...Player.properties, blockId: Id, blockedAt: Time });
export type BlockedUser = Static<typeof BlockedUser>;
