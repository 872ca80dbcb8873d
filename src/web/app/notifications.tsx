import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { NOTIFICATION_EVENT, RESOURCE_CHANGE_EVENT } from '../../contract/events.ts';
import type { LiveResource, ResourceChange } from '../../contract/live.ts';
import type { Notification, NotificationData } from '../../contract/notifications.ts';
import type { Page } from '../../contract/common.ts';
import { apiFetch } from './api.ts';
import { useSession } from './auth.tsx';
import { UNREAD_PAGE_SIZE } from './constants.ts';
import { useApiWrite } from './queries.ts';
import type { ChangeSource } from './liveProvider.ts';

/** A notification as the bell lists it (docs/product.md, Notifications). */
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
  /** The stream's resource changes (Refine's live provider listens here): one stream for both. */
  changes: ChangeSource;
}

const NotificationsContext = createContext<NotificationsValue>({ items: [], unread: 0, markRead: async () => {}, changes: () => () => {} });
export const useNotifications = () => useContext(NotificationsContext);

/** Calls `onChange` at each change of `resource` the stream announces, outside Refine too (the balance). */
export function useResourceChanges(resource: LiveResource, onChange: () => void) {
  const { changes } = useNotifications();
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => changes((change) => change.resource === resource && latest.current()), [changes, resource]);
}

/**
 * Signed in: the unread list (page 0, size 20) at start, then the live stream appends as unread.
 * The same stream carries resource changes, handed to whoever listens (`changes`).
 */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const { status, accessToken } = useSession();
  const signedIn = status === 'authenticated';
  const [items, setItems] = useState<BellNotification[]>([]);
  const [listeners] = useState(() => new Set<(change: ResourceChange) => void>());
  const changes = useCallback<ChangeSource>(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    [listeners],
  );

  const add = useCallback((incoming: BellNotification[]) => {
    setItems((list) => {
      const known = new Set(list.map((n) => n.id));
      return [...incoming.filter((n) => !known.has(n.id)), ...list];
    });
  }, []);

  // One stream per session: a token refresh must not reopen it (docs/product.md, Notifications: an error closes it for good).
  const [streamToken, setStreamToken] = useState<string | undefined>();
  if (signedIn && accessToken && !streamToken) setStreamToken(accessToken);
  if (!signedIn && streamToken) {
    setStreamToken(undefined);
    setItems([]);
  }

  useEffect(() => {
    if (!streamToken) return;
    let live = true;
    // Read once the stream listens: a notice sent between an earlier read and the stream's opening was lost.
    const readUnread = () =>
      void apiFetch<Page<Notification>>(`/v1/user/notifications/unread?page=0&size=${UNREAD_PAGE_SIZE}`).then(
        (page) => live && add(page.data.map(({ id, event, data, read }) => ({ id, event, data, read }))),
        (err: unknown) => console.error('unread notifications', err),
      );
    const tell = (change: ResourceChange) => {
      for (const listener of listeners) listener(change);
    };
    // The stream's reader comes with the first signed-in page: visitors never download it.
    let close = () => {};
    void import('./eventStream.ts').then(({ openEventStream }) => {
      if (!live) return;
      close = openEventStream(
        '/v1/user/notifications/stream',
        streamToken,
        (e) => {
          try {
            if (e.event === NOTIFICATION_EVENT) {
              add([{ id: e.id, event: e.event, data: JSON.parse(e.data) as NotificationData, read: false }]);
              // The notifications page lists it too.
              tell({ resource: 'notifications', ids: [e.id], type: 'created' });
            } else if (e.event === RESOURCE_CHANGE_EVENT) {
              const change = JSON.parse(e.data) as ResourceChange;
              // The only change to a notification is being read (here, on its page or in another tab).
              if (change.resource === 'notifications' && change.type === 'updated') setItems((list) => list.map((n) => (change.ids.includes(n.id) ? { ...n, read: true } : n)));
              tell(change);
            }
            // Heartbeats and anything else: nothing to do.
          } catch (err) {
            console.error('bad stream event', err);
          }
        },
        readUnread,
      );
    }, readUnread);
    return () => {
      live = false;
      close();
    };
  }, [streamToken, add, listeners]);

  // The bell lives in the shell, which never loads Refine (docs/architecture.md, Boundaries).
  const { mutateAsync: write } = useApiWrite();
  const markRead = useCallback(
    async (id: string) => {
      setItems((list) => list.map((n) => (n.id === id ? { ...n, read: true } : n)));
      await write({ url: `/v1/user/notification/${encodeURIComponent(id)}`, method: 'put' }).catch((err: unknown) => console.error('mark read', err));
    },
    [write],
  );

  const value = useMemo(() => ({ items, unread: items.filter((n) => !n.read).length, markRead, changes }), [items, markRead, changes]);
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}
