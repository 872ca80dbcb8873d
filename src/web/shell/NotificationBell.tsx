import { useState } from 'react';
import { Box, IconButton } from '@mui/material';
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
        <InboxIcon />
        {unread > 0 && (
          // The count over the icon: a Box rather than MUI's Badge, whose code every signed-in page would download.
          <Box
            component="span"
            aria-hidden
            sx={{
              position: 'absolute',
              top: 2,
              right: 0,
              minWidth: 20,
              height: 20,
              px: 0.75,
              borderRadius: 10,
              bgcolor: 'secondary.main',
              color: 'secondary.contrastText',
              typography: 'caption',
              fontWeight: 500,
              lineHeight: '20px',
              textAlign: 'center',
            }}
          >
            {unread > 99 ? '99+' : unread}
          </Box>
        )}
      </IconButton>
      {List && <List anchor={anchor} items={items} onClose={() => setAnchor(null)} />}
    </>
  );
}
