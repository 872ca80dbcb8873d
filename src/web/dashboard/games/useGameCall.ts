import { useCustom, useCustomMutation, useSubscription, type BaseRecord } from '@refinedev/core';
import type { ApiError } from '../../app/api.ts';

/**
 * How often a running game's status and players are read again besides the server's change events:
 * the server notices players between its looks at the game, so one who left and came back in
 * between (kicked, then back at once) is never announced.
 */
export const LIVE_READ_MS = 15_000;

/** The `/v1/game/{id}` path of one of a game's calls (`status`, `minecraft/kick`...). */
const gamePath = (gameId: string, call: string) => `/v1/game/${encodeURIComponent(gameId)}/${call}`;

/**
 * A read of one of a game's own calls (its live status, who is connected, a player list) through
 * Refine, read again whenever the server says the game changed (its status, players or lists);
 * `enabled: false` holds it until it makes sense, `refreshEvery(data)` (ms, 0 for never) reads it again at a pace
 * its last answer sets.
 */
export function useGameRead<T>(gameId: string, call: string, { enabled = true, refreshEvery }: { enabled?: boolean; refreshEvery?: (data: T) => number } = {}) {
  const { query } = useCustom<T & BaseRecord, ApiError>({
    url: gamePath(gameId, call),
    method: 'get',
    queryOptions: {
      enabled,
      placeholderData: (previous) => previous,
      refetchInterval: refreshEvery && ((q) => (q.state.data ? refreshEvery(q.state.data.data as T) || false : false)),
    },
  });
  // Refine subscribes once, keeping this first listener: the query's refetch stays the same
  // function for the component's life and reads the query's current options.
  const { refetch } = query;
  useSubscription({
    channel: 'resources/games',
    types: ['updated'],
    params: { ids: [gameId] },
    enabled,
    onLiveEvent: () => void refetch(),
  });
  return { data: query.data?.data as T | undefined, error: query.error, loading: query.isPending, refetch: () => void refetch() };
}

/** A write to one of a game's calls through Refine: `send(call, method, values)` resolves to the answer. */
export function useGameWrite<T>(gameId: string) {
  const { mutateAsync } = useCustomMutation<T & BaseRecord, ApiError>();
  return (call: string, method: 'post' | 'put', values: object = {}) =>
    mutateAsync({ url: gamePath(gameId, call), method, values, successNotification: false, errorNotification: false }).then((answer) => answer.data as T);
}
