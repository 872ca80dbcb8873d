import type { BaseKey, LiveProvider } from '@refinedev/core';
import type { ResourceChange } from '../../contract/live.ts';

/** Listens to the resource changes of the notification stream; answers the function that stops. */
export type ChangeSource = (listener: (change: ResourceChange) => void) => () => void;

/**
 * Refine's live provider over the notification stream the app already holds open (one per
 * session, src/web/app/notifications.tsx): a `resource-change` event naming `games` reaches the
 * subscriptions of channel `resources/games`, and with `liveMode: "auto"` Refine refetches that
 * resource's queries. A record's subscription (useOne) hears only of its own record, or of a change
 * that names none (the ledger when the balance moved).
 *
 * No `publish`: the server announces every change, the ones this tab made too, so echoing Refine's
 * mutations here would only refetch twice.
 */
export function liveProvider(changes: ChangeSource): LiveProvider {
  return {
    subscribe({ channel, types, params, callback }) {
      const ids = (params?.ids as BaseKey[] | undefined)?.map(String) ?? [];
      return changes((change) => {
        if (channel !== `resources/${change.resource}`) return;
        if (!types.includes('*') && !types.includes(change.type)) return;
        if (ids.length > 0 && change.ids.length > 0 && !change.ids.some((id) => ids.includes(id))) return;
        callback({ channel, type: change.type, payload: { ids: change.ids }, date: new Date() });
      });
    },
    unsubscribe(stop: () => void) {
      stop();
    },
  };
}
