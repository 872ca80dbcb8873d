import { useState } from 'react';
import { Badge, Box, Button, Divider, IconButton, List, ListItem, Popover, Typography } from '@mui/material';
import { Inbox as InboxIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';
import { useNotifications } from '../app/notifications.tsx';

/** The inbox icon with the unread count; opening the list marks what it shows as read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const { items, unread, markRead } = useNotifications();
  const to = useLocalePath();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = (el: HTMLElement) => {
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
      <Popover
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': 'notifications-title', sx: { width: 380, maxWidth: 'calc(100vw - 32px)', maxHeight: 480 } } }}
      >
        <Typography id="notifications-title" variant="subtitle1" component="h2" sx={{ px: 2, py: 1.5, fontWeight: 700 }}>
          {t('notifications.title')}
        </Typography>
        <Divider />
        {items.length === 0 ? (
          <Typography color="text.secondary" sx={{ px: 2, py: 2 }}>
            {t('notifications.empty')}
          </Typography>
        ) : (
          <List disablePadding>
            {items.map((n) => (
              <ListItem key={n.id} divider sx={{ gap: 1, alignItems: 'flex-start' }} data-testid="notification">
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: n.read ? 500 : 700 }}>{n.data.title}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {n.data.description}
                  </Typography>
                </Box>
                {n.data.link?.startsWith('/') ? (
                  <Button size="small" variant="outlined" component={RouterLink} to={to(n.data.link)} onClick={() => setAnchor(null)}>
                    {t('notifications.openLink')}
                  </Button>
                ) : (
                  n.data.link && (
                    <Button size="small" variant="outlined" href={n.data.link} target="_blank" rel="noopener noreferrer">
                      {t('notifications.openLink')}
                    </Button>
                  )
                )}
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
