import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Download as DownloadIcon } from '@mui/icons-material';
import { useCustom, useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { BackupLink, KeptBackup } from '../../../../contract/backups.ts';
import type { ApiError } from '../../../app/api.ts';
import { downloadFrom } from '../../../ui/download.ts';
import { formatBytes, formatDate } from '../../../ui/format.ts';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { browserZone } from '../schedules/rule.ts';

/**
 * On the account page: the last backup of each server its owner deleted, to download until it goes.
 * Nothing at all for an owner who never deleted one (the page is about the account, not this).
 */
export function KeptBackupsCard() {
  const { t, i18n } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { query } = useCustom<KeptBackup[] & BaseRecord, ApiError>({ url: '/v1/backups/kept', method: 'get' });
  const { mutateAsync: call } = useCustomMutation<BackupLink & BaseRecord, ApiError>();
  const { run, busy, result } = useConfirmedAction();
  if (query.isError) return <LoadError message={`${t('backups.kept.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />;
  const kept = (query.data?.data ?? []) as KeptBackup[];
  if (kept.length === 0) return null;
  const download = (backup: KeptBackup) =>
    void run({
      action: async () => {
        const link = await call({ url: `/v1/backups/kept/${encodeURIComponent(backup.id)}/link`, method: 'post', values: {}, successNotification: false, errorNotification: false });
        downloadFrom(`${link.data.url}?tz=${encodeURIComponent(browserZone())}`);
      },
      failure: t('backups.kept.downloadFailed'),
    });
  return (
    <Card data-testid="kept-backups">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
          {t('backups.kept.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('backups.kept.intro')}
        </Typography>
        <Stack spacing={1.5}>
          {kept.map((backup) => (
            <Box key={backup.id} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{backup.gameName}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('backups.kept.details', {
                    date: formatDate(backup.createdAt, i18n.language),
                    size: formatBytes(backup.sizeBytes, i18n.language),
                    until: formatDate(backup.expiresAt, i18n.language),
                  })}
                </Typography>
              </Box>
              <Button variant="outlined" size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={() => download(backup)}>
                {t('backups.download')}
              </Button>
            </Box>
          ))}
        </Stack>
        <ActionAlert result={result} />
      </CardContent>
    </Card>
  );
}
