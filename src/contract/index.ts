import * as catalogue from './catalogue.ts';
import * as creditPacks from './credit-packs.ts';
import * as games from './games.ts';
import * as payments from './payments.ts';
import * as promocodes from './promocodes.ts';
import * as renewals from './renewals.ts';
import * as reviews from './reviews.ts';
import * as social from './social.ts';
import * as subscriptions from './subscriptions.ts';
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
  renewals.gamePaymentRequestUpdate,
  reviews.gameReviewCreate,
  creditPacks.pricingRequest,
  promocodes.promoCodeCreateRequest,
  payments.stripePaymentCreate,
  payments.stripeSubscriptionRequest,
  subscriptions.subscriptionCreateRequest,
  payments.sandboxConfirmRequest,
  user.userCreditAddRequest,
  user.userMcUUIDRequest,
] as const;
