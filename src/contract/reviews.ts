import { Type, type Static } from 'typebox';
import { DateTime, Id, Localized, Nullable, Page } from './common.ts';
import { StaffListQuery } from './staff.ts';

// Players' reviews of the catalogue's games, and their moderation in the back office.

export const gameReviewCreate = Type.Object(
  { definitionId: Id, rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { $id: 'gameReviewCreate', additionalProperties: false },
);
export type GameReviewCreate = Static<typeof gameReviewCreate>;

export const GameReview = Type.Object({
  id: Id,
  definitionId: Id,
  rating: Type.Integer(),
  comment: Nullable(Type.String()),
  author: Type.Object({
    id: Id,
    name: Type.String(),
    /** The author deleted their account: their review stays, shown as a former player's, and `name` is empty. */
    former: Type.Optional(Type.Literal(true)),
  }),
  createdAt: DateTime,
  /** Given on the caller's own review (`mine`): true when staff hid it from the others. */
  hidden: Type.Optional(Type.Boolean()),
});
export type GameReview = Static<typeof GameReview>;

/** A review as the back office moderates it. */
export const StaffReview = Type.Object({
  id: Id,
  definitionId: Id,
  definitionName: Localized(80),
  userId: Id,
  userName: Type.String(),
  rating: Type.Integer(),
  comment: Nullable(Type.String()),
  hidden: Type.Boolean(),
  hiddenReason: Nullable(Type.String()),
  createdAt: DateTime,
});
export type StaffReview = Static<typeof StaffReview>;

const staffReviewSortFields = ['createdAt', 'rating'] as const;
export const StaffReviewQuery = StaffListQuery(staffReviewSortFields, {
  definitionId: Type.Optional(Id),
  hidden: Type.Optional(Type.Boolean()),
});
export type StaffReviewQuery = Static<typeof StaffReviewQuery>;

/** A page of a definition's reviews, with the caller's own review and whether they may write one. */
export const ReviewPage = Type.Intersect([Page(GameReview), Type.Object({ mine: Nullable(GameReview), canReview: Type.Boolean() })]);
export interface ReviewPage extends Page<GameReview> {
  mine: GameReview | null;
  canReview: boolean;
}
