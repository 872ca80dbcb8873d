import { Type } from 'typebox';
import { Id, McName } from './common.ts';

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
