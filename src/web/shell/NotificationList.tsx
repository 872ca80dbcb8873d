import { Box, Button, Divider, List, ListItem, Popover, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';
import type { BellNotification } from '../app/notifications.tsx';
import { useMessages } from '../ui/useMessages.ts';

/** The bell's popup, its own chunk: loaded at the first opening, not with every signed-in page. */
export default function NotificationList({ anchor, items, onClose }: { anchor: HTMLElement | null; items: BellNotification[]; onClose: () => void }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Popover
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
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
            <NotificationItem key={n.id} n={n} onClose={onClose} />
          ))}
        </List>
      )}
      <Divider />
      {/* Read ones leave the bell; the notifications page keeps them all. */}
      <Box sx={{ px: 2, py: 1, display: 'flex', justifyContent: 'flex-end' }}>
        <Button size="small" component={RouterLink} to={to('/dashboard/notifications')} onClick={onClose}>
          {t('notifications.seeAll')}
        </Button>
      </Box>
    </Popover>
  );
}

/** One notice, in the language on screen. */
function NotificationItem({ n, onClose }: { n: BellNotification; onClose: () => void }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { title, description } = useMessages().notice(n.data);
  return (
    <ListItem divider sx={{ gap: 1, alignItems: 'flex-start' }} data-testid="notification">
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: n.read ? 500 : 700 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {description}
        </Typography>
      </Box>
      {n.data.link?.startsWith('/') ? (
        <Button size="small" variant="outlined" component={RouterLink} to={to(n.data.link)} onClick={onClose}>
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
  );
}
