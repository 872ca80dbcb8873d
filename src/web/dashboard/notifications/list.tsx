import { Box, Card, CardContent, Typography } from '@mui/material';
import { useCustomMutation, useInvalidate } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Notification } from '../../../contract/notifications.ts';
import { UNREAD_PAGE_SIZE } from '../../app/constants.ts';
import { useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { PagedTable, usePaged } from '../lists.tsx';
import { NotificationRow } from './NotificationRow.tsx';

/**
 * /dashboard/notifications: every notification, read or not, newest first and paged, where the
 * bell only keeps the unread ones. New ones and reads from the bell or another tab show live (the
 * stream's changes, through Refine's live mode).
 */
export function NotificationList() {
  const { t } = useTranslation('notifications');
  const paged = usePaged<Notification>('notifications', { pageSize: UNREAD_PAGE_SIZE });
  const { mutateAsync } = useCustomMutation();
  const invalidate = useInvalidate();
  const { run, busy, dialog } = useConfirmedAction({ snackbar: true });
  const markRead = (n: Notification) =>
    void run({
      action: async () => {
        await mutateAsync({ url: `/v1/user/notification/${encodeURIComponent(n.id)}`, method: 'put', values: {}, successNotification: false });
        await invalidate({ resource: 'notifications', invalidates: ['list'] });
      },
      failure: t('markReadFailed'),
    });
  return (
    <Box sx={{ maxWidth: 860, mx: 'auto' }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.75rem', md: '2.25rem' }, mb: 3 }}>
        {t('title')}
      </Typography>
      <Card>
        <CardContent sx={{ px: { xs: 1, sm: 2 } }}>
          <PagedTable paged={paged} label={t('title')} empty={t('empty')} row={(n) => <NotificationRow key={n.id} notification={n} busy={busy} onMarkRead={() => markRead(n)} />} />
        </CardContent>
      </Card>
      {dialog}
    </Box>
  );
}
