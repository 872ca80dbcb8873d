import { useEffect, useRef } from 'react';
import { useCustom, useSubscription, type BaseRecord } from '@refinedev/core';
import type { SharedGame, SharedGameList } from '../../../../contract/sharing.ts';
import type { ApiError } from '../../../app/api.ts';
import { useNotifications } from '../../../app/notifications.tsx';

/**
 * The games friends shared with the caller (GET /v1/game/shared), read again whenever the server says
 * a game changed: one shared, unshared or given another role, or one of them started or stopped;
 * and when a notification arrives ("X shared a server with you" comes as one).
 */
export function useSharedGames({ enabled = true }: { enabled?: boolean } = {}) {
  const { query } = useCustom<SharedGameList & BaseRecord, ApiError>({
    url: '/v1/game/shared',
    method: 'get',
    queryOptions: { enabled, placeholderData: (previous) => previous },
  });
  const { refetch } = query;
  useSubscription({ channel: 'resources/games', types: ['*'], enabled, onLiveEvent: () => void refetch() });
  const newest = useNotifications().items[0]?.id;
  const seen = useRef(newest);
  useEffect(() => {
    if (!enabled || newest === seen.current) return;
    seen.current = newest;
    void refetch();
  }, [enabled, newest, refetch]);
  return { games: query.data?.data.data as SharedGame[] | undefined, error: query.error, loading: query.isPending, refetch: () => void refetch() };
}
