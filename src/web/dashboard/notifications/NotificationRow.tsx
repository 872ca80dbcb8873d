import { Box, Button, Chip, TableCell, TableRow, Typography } from '@mui/material';
import { DoneAll as MarkReadIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Notification } from '../../../contract/notifications.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { formatDate } from '../../ui/format.ts';
import { useMessages } from '../../ui/useMessages.ts';

/** One notification: unread ones stand out and can be marked read; its link opens where it leads. */
export function NotificationRow({ notification: n, onMarkRead, busy }: { notification: Notification; onMarkRead: () => void; busy: boolean }) {
  const { t, i18n } = useTranslation('notifications');
  const to = useLocalePath();
  const link = n.data.link;
  // In the language on screen, from the notice's message.
  const { title, description } = useMessages().notice(n.data);
  return (
    <TableRow data-testid="notification-row" data-read={n.read} sx={{ bgcolor: n.read ? undefined : 'action.hover' }}>
      <TableCell sx={{ pl: { xs: 1, sm: 2 }, maxWidth: 0, width: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          {!n.read && <Chip size="small" color="secondary" label={t('unread')} />}
          <Typography component="h2" variant="body1" sx={{ fontWeight: n.read ? 500 : 700, overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {description}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {formatDate(n.createdAt, i18n.language)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
          {link?.startsWith('/') ? (
            <Button size="small" variant="outlined" component={RouterLink} to={to(link)}>
              {t('open')}
            </Button>
          ) : (
            link && (
              <Button size="small" variant="outlined" href={link} target="_blank" rel="noopener noreferrer">
                {t('open')}
              </Button>
            )
          )}
          {!n.read && (
            <Button size="small" startIcon={<MarkReadIcon />} onClick={onMarkRead} disabled={busy} aria-label={t('markReadOf', { title })}>
              {t('markRead')}
            </Button>
          )}
        </Box>
      </TableCell>
    </TableRow>
  );
}
