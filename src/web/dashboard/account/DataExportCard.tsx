import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, List, ListItem, ListItemText, Skeleton, Typography } from '@mui/material';
import { Download as DownloadIcon } from '@mui/icons-material';
import { useCustom, useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { DataExport, DataExportList } from '../../../contract/data-exports.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { saveAuthorized } from '../../ui/download.ts';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { LoadError } from '../../ui/states.tsx';

const EXPORTS = '/v1/user/exports';
/** While one is built (within a minute), the list is read again this often. */
const PENDING_POLL_MS = 3000;

const chipColor = { PENDING: 'info', READY: 'success', FAILED: 'error' } as const;

/** "Mes données": a copy of everything the platform holds about the player, asked, then downloaded (RGPD article 20). */
export function DataExportCard() {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language;
  const { query } = useCustom<DataExportList & BaseRecord, ApiError>({
    url: EXPORTS,
    method: 'get',
    queryOptions: { refetchInterval: (q) => ((q.state.data?.data as DataExportList | undefined)?.data.some((e) => e.status === 'PENDING') ? PENDING_POLL_MS : false) },
  });
  const exports = (query.data?.data as DataExportList | undefined)?.data;
  const { mutate, mutation } = useCustomMutation<DataExport & BaseRecord, ApiError>();
  const [error, setError] = useState<string | null>(null);
  const pending = exports?.some((e) => e.status === 'PENDING') ?? false;

  const ask = () => {
    setError(null);
    mutate(
      { url: EXPORTS, method: 'post', values: {}, successNotification: false, errorNotification: false },
      { onSuccess: () => void query.refetch(), onError: (err) => setError(`${t('dataExport.askFailed')} ${errorText(err)}`) },
    );
  };
  const download = (row: DataExport) => {
    setError(null);
    saveAuthorized(`${EXPORTS}/${row.id}/download`, `blockhost-data-${row.createdAt.slice(0, 10)}.json`, { accept: 'application/json' }).catch((err: unknown) =>
      setError(`${t('dataExport.downloadFailed')} ${errorText(err)}`),
    );
  };

  return (
    <Card id="data" data-testid="data-export-card" sx={{ scrollMarginTop: 80 }}>
      <CardHeader title={t('dataExport.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography color="text.secondary">{t('dataExport.intro')}</Typography>
        <Box sx={{ mt: 2 }}>
          <Button variant="contained" onClick={ask} disabled={pending || mutation.isPending || query.isPending}>
            {pending ? t('dataExport.preparing') : t('dataExport.ask')}
          </Button>
        </Box>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {query.isError ? (
          <Box sx={{ mt: 2 }}>
            <LoadError message={`${t('dataExport.loadError')} ${errorText(query.error)}`} onRetry={() => void query.refetch()} />
          </Box>
        ) : !exports ? (
          <Skeleton height={48} sx={{ mt: 1 }} />
        ) : exports.length === 0 ? null : (
          <List dense sx={{ mt: 1 }} aria-label={t('dataExport.listLabel')}>
            {exports.map((row) => (
              <ListItem
                key={row.id}
                disableGutters
                sx={{ flexWrap: 'wrap', gap: 1 }}
                secondaryAction={
                  row.status === 'READY' ? (
                    <Button size="small" startIcon={<DownloadIcon />} onClick={() => download(row)}>
                      {t('dataExport.download')}
                    </Button>
                  ) : undefined
                }
              >
                <ListItemText
                  sx={{ pr: row.status === 'READY' ? 14 : 0 }}
                  primary={
                    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                      {formatDate(row.createdAt, lang)}
                      <Chip size="small" color={chipColor[row.status]} label={t(`dataExport.status.${row.status}`)} />
                    </Box>
                  }
                  secondary={
                    row.status === 'READY'
                      ? t('dataExport.readyUntil', { size: formatBytes(row.sizeBytes, lang), date: formatDate(row.expiresAt, lang) })
                      : row.status === 'FAILED'
                        ? t('dataExport.failed')
                        : t('dataExport.pendingText')
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
