import * as catalogue from './catalogue.ts';
import * as credits from './credits.ts';
import * as games from './games.ts';
import * as reviews from './reviews.ts';
import * as social from './social.ts';
import * as user from './user.ts';

/** The request bodies with historical names (docs/conventions.md, An API call), registered under those names in the OpenAPI document. */
export const namedBodies = [
  social.blockListAdd,
  social.friendGroupCreateRequest,
  social.friendGroupUpdate,
  social.friendGroupMemberUpdate,
  social.friendGroupMemberPseudoAdd,
  social.friendGroupMemberImport,
  social.friendAdd,
  social.friendMinecraftAdd,
  social.friendRequestUpdate,
  games.gameCreate,
  catalogue.gameDefCreate,
  catalogue.gamePackageCreate,
  games.playerRequest,
  games.playerPatchRequest,
  games.playerGroupIdPatchRequest,
  credits.gamePaymentRequestUpdate,
  reviews.gameReviewCreate,
  credits.pricingRequest,
  credits.promoCodeCreateRequest,
  credits.stripePaymentCreate,
  credits.stripeSubscriptionRequest,
  credits.subscriptionCreateRequest,
  credits.sandboxConfirmRequest,
  user.userCreditAddRequest,
  user.userMcUUIDRequest,
] as const;
