import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { NOTIFICATION_EVENT } from '../../contract/events.ts';
import type { Notification, NotificationData } from '../../contract/notifications.ts';
import type { Page } from '../../contract/common.ts';
import { apiFetch } from './api.ts';
import { useSession } from './auth.tsx';
import { UNREAD_PAGE_SIZE } from './constants.ts';
import { openEventStream } from './eventStream.ts';

/** A notification as the bell lists it (SPEC.md §3). */
export interface BellNotification {
  id: string;
  event: string;
  data: NotificationData;
  read: boolean;
}

interface NotificationsValue {
  items: BellNotification[];
  unread: number;
  markRead: (id: string) => Promise<void>;
}

const NotificationsContext = createContext<NotificationsValue>({ items: [], unread: 0, markRead: async () => {} });
export const useNotifications = () => useContext(NotificationsContext);

/** Signed in: the unread list (page 0, size 20) at start, then the live stream appends as unread. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const { status, accessToken } = useSession();
  const signedIn = status === 'authenticated';
  const [items, setItems] = useState<BellNotification[]>([]);

  const add = useCallback((incoming: BellNotification[]) => {
    setItems((list) => {
      const known = new Set(list.map((n) => n.id));
      return [...incoming.filter((n) => !known.has(n.id)), ...list];
    });
  }, []);

  // One stream per session: a token refresh must not reopen it (SPEC.md: an error closes it for good).
  const [streamToken, setStreamToken] = useState<string | undefined>();
  if (signedIn && accessToken && !streamToken) setStreamToken(accessToken);
  if (!signedIn && streamToken) {
    setStreamToken(undefined);
    setItems([]);
  }

  useEffect(() => {
    if (!streamToken) return;
    let live = true;
    apiFetch<Page<Notification>>(`/v1/user/notifications/unread?page=0&size=${UNREAD_PAGE_SIZE}`).then(
      (page) => live && add(page.data.map(({ id, event, data, read }) => ({ id, event, data, read }))),
      (err: unknown) => console.error('unread notifications', err),
    );
    const close = openEventStream('/v1/user/notifications/stream', streamToken, (e) => {
      if (e.event !== NOTIFICATION_EVENT) return; // heartbeats and anything else
      try {
        add([{ id: e.id, event: e.event, data: JSON.parse(e.data) as NotificationData, read: false }]);
      } catch (err) {
        console.error('bad notification', err);
      }
    });
    return () => {
      live = false;
      close();
    };
  }, [streamToken, add]);

  const markRead = useCallback(async (id: string) => {
    setItems((list) => list.map((n) => (n.id === id ? { ...n, read: true } : n)));
    await apiFetch<void>(`/v1/user/notification/${encodeURIComponent(id)}`, { method: 'PUT' }).catch((err: unknown) => console.error('mark read', err));
  }, []);

  const value = useMemo(() => ({ items, unread: items.filter((n) => !n.read).length, markRead }), [items, markRead]);
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}
