import type { NotificationProvider } from '@refinedev/core';

let shown: NotificationProvider | null = null;

/**
 * Refine's notifications (saved, deleted, the API's error) go to whichever snackbar the page
 * mounted: the back office mounts @refinedev/mui's, whose code stays in its own chunk; the
 * player's pages, which say what happened in place, mount none and show nothing more than before.
 */
export const notificationProvider: NotificationProvider = {
  open: (params) => shown?.open(params),
  close: (key) => shown?.close(key),
};

/** Shows Refine's notifications with `provider` until the returned function is called. */
export function showNotificationsWith(provider: NotificationProvider): () => void {
  shown = provider;
  return () => {
    if (shown === provider) shown = null;
  };
}
