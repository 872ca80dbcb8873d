import { Type, type Static } from 'typebox';
import { Id } from './common.ts';

export { RESOURCE_CHANGE_EVENT } from './events.ts';

/**
 * What a `resource-change` event may name: the web app's Refine resources (src/web/app/resources.ts)
 * whose data the server changes on its own or from another tab. `transactions` is the ledger, so
 * the balance too; `ranked` is the player's ladder state (queue, match, ratings).
 */
export const liveResources = ['games', 'gamePayments', 'friends', 'friendRequests', 'friendGroups', 'transactions', 'notifications', 'backups', 'ranked'] as const;
export type LiveResource = (typeof liveResources)[number];

/** The `data` of a `resource-change` event: which of the user's records changed, and how. */
export const ResourceChange = Type.Object({
  resource: Type.Enum(liveResources),
  /** The records that changed; empty when the change is to the collection as a whole (the balance). */
  ids: Type.Array(Id, { maxItems: 100 }),
  type: Type.Enum(['created', 'updated', 'deleted']),
});
export type ResourceChange = Static<typeof ResourceChange>;
