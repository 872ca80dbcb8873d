import { Type } from 'typebox';
import { Id, Localized, McName } from './common.ts';

export const playerListTypes = ['WHITELIST', 'OPS', 'BANNED'] as const;
const PlayerListType = Type.Union(playerListTypes.map((t) => Type.Literal(t)));
const PlayerAction = Type.Union([Type.Literal('ADD'), Type.Literal('REMOVE')]);

export const GameSettings = Type.Object(
  {
    motd: Type.Optional(Type.String({ maxLength: 59 })),
    gameMode: Type.Optional(Type.Union([Type.Literal('survival'), Type.Literal('creative'), Type.Literal('adventure'), Type.Literal('spectator')])),
    difficulty: Type.Optional(Type.Union([Type.Literal('peaceful'), Type.Literal('easy'), Type.Literal('normal'), Type.Literal('hard')])),
    seed: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);

export const gameDefCreate = Type.Object(
  {
    name: Localized(80),
    description: Localized(4000),
    image: Type.Optional(Type.String({ maxLength: 500 })),
    version: Type.String({ pattern: '^1\\.\\d{1,2}(\\.\\d{1,2})?$' }),
    settings: Type.Optional(GameSettings),
    published: Type.Optional(Type.Boolean()),
  },
  { $id: 'gameDefCreate', additionalProperties: false },
);

export const gamePackageCreate = Type.Object(
  {
    definitionId: Id,
    name: Type.String({ minLength: 1, maxLength: 60 }),
    ramMb: Type.Integer({ minimum: 128, maximum: 65536 }),
    maxPlayers: Type.Integer({ minimum: 1, maximum: 1000 }),
    periodDays: Type.Integer({ minimum: 1, maximum: 366 }),
    priceCredits: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  },
  { $id: 'gamePackageCreate', additionalProperties: false },
);

export const gameCreate = Type.Object(
  {
    definitionId: Id,
    packageId: Id,
    name: Type.String({ minLength: 1, maxLength: 60 }),
    settings: Type.Optional(GameSettings),
    promoCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$' })),
    autoRenew: Type.Optional(Type.Boolean()),
  },
  { $id: 'gameCreate', additionalProperties: false },
);

export const playerRequest = Type.Object(
  { name: McName, reason: Type.Optional(Type.String({ maxLength: 200 })) },
  { $id: 'playerRequest', additionalProperties: false },
);
export const playerPatchRequest = Type.Object(
  { name: McName, type: PlayerListType, action: PlayerAction },
  { $id: 'playerPatchRequest', additionalProperties: false },
);
export const playerGroupIdPatchRequest = Type.Object(
  { groupId: Id, type: PlayerListType, action: PlayerAction },
  { $id: 'playerGroupIdPatchRequest', additionalProperties: false },
);
export const gameReviewCreate = Type.Object(
  { definitionId: Id, rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { $id: 'gameReviewCreate', additionalProperties: false },
);
