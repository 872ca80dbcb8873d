import { useState } from 'react';
import { Badge, IconButton } from '@mui/material';
import { Inbox as InboxIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { useNotifications } from '../app/notifications.tsx';
import { usePopupOnDemand } from './usePopupOnDemand.ts';

/** The inbox icon with the unread count; opening the list (loaded at the first opening) marks what it shows as read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const { items, unread, markRead } = useNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [List, load] = usePopupOnDemand(() => import('./NotificationList.tsx'));
  const open = (el: HTMLElement) => {
    load();
    setAnchor(el);
    for (const n of items) if (!n.read) void markRead(n.id);
  };
  return (
    <>
      <IconButton
        color="inherit"
        onClick={(e) => open(e.currentTarget)}
        aria-label={t('notifications.open', { count: unread })}
        title={t('notifications.title')}
        aria-haspopup="dialog"
        data-testid="notification-bell"
      >
        <Badge badgeContent={unread} color="secondary">
          <InboxIcon />
        </Badge>
      </IconButton>
      {List && <List anchor={anchor} items={items} onClose={() => setAnchor(null)} />}
    </>
  );
}
