import { useMemo, useState } from 'react';
import { Alert, Box, Button, Chip, Typography, useMediaQuery, useTheme } from '@mui/material';
import { PushPin as PushPinIcon, Restore as RestoreIcon } from '@mui/icons-material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useCan } from '@refinedev/core';
import { useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { Backup } from '../../../contract/backups.ts';
import type { StaffGame } from '../../../contract/games.ts';
import type { ApiError } from '../../app/api.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';
import { asGridProps, useGridDefaults } from '../common.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { LoadFailure } from '../lists.tsx';

const statusColor = { PENDING: 'info', RUNNING: 'info', READY: 'success', FAILED: 'error' } as const;

/** Puts a backup back for the game's owner, after a reason; the restore runs on and the owner is told how it went. */
function RestoreDialog({ game, backup, onClose, onDone }: { game: StaffGame; backup: Backup; onClose: () => void; onDone: (backup: Backup) => void }) {
  const { t, i18n } = useTranslation('staff');
  const date = formatDate(backup.createdAt, i18n.language);
  return (
    <ActionDialog<{ reason: string }, Backup>
      open
      onClose={onClose}
      testId="restore-dialog"
      title={t('staffGameBackups.restore.title', { date })}
      text={t('staffGameBackups.restore.text', { name: game.name, date, owner: game.ownerName })}
      url={`/v1/staff/games/${encodeURIComponent(game.id)}/backups/${encodeURIComponent(backup.id)}/restore`}
      defaultValues={{ reason: '' }}
      submitLabel={t('staffGameBackups.restore.submit')}
      danger
      success={() => t('staffGameBackups.restore.done', { name: game.name })}
      onDone={onDone}
      fields={(control) => <ReasonInput control={control} />}
    />
  );
}

/**
 * A game's backups as its owner sees them, newest first; staff (not support) restore a READY one
 * for the owner, with a reason kept in the audit log.
 */
export function GameBackups({ game, onRestored }: { game: StaffGame; onRestored: () => void }) {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { dataGridProps, tableQuery } = useDataGrid<Backup, ApiError>({
    resource: 'staffGameBackups',
    meta: { params: { gameId: game.id } },
    pagination: { pageSize: 10 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    // A part of the game's page: its paging is not the page's address, which names the game.
    syncWithLocation: false,
  });
  const canRestore = useCan({ resource: 'staffGameBackups', action: 'restore' }).data?.can ?? false;
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [started, setStarted] = useState<Backup | null>(null);

  const columns = useMemo<GridColDef<Backup>[]>(() => {
    const kind = (b: Backup) => t(`staffGameBackups.kinds.${b.kind}`);
    // A running backup says how far it is, as on the owner's card.
    const status = (b: Backup) =>
      b.status === 'RUNNING' && b.progress !== null
        ? `${t('staffGameBackups.status.RUNNING')} ${(b.progress / 100).toLocaleString(lang, { style: 'percent' })}`
        : t(`staffGameBackups.status.${b.status}`);
    return [
      {
        field: 'createdAt',
        headerName: t('staffGameBackups.fields.createdAt'),
        flex: 1,
        minWidth: phone ? 120 : 150,
        renderCell: ({ row }) => (
          <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal' }}>
            {formatDate(row.createdAt, lang)}
            {/* A phone shows no kind, size, pin or author column: they go under the date. */}
            {phone && (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                {[kind(row), formatBytes(row.sizeBytes, lang), row.createdBy, row.pinned ? t('staffGameBackups.pinned') : null].filter(Boolean).join(' · ')}
              </Typography>
            )}
          </Box>
        ),
      },
      { field: 'kind', headerName: t('staffGameBackups.fields.kind'), width: 130, valueGetter: (_, row) => kind(row) },
      { field: 'sizeBytes', headerName: t('staffGameBackups.fields.size'), width: 110, align: 'right', headerAlign: 'right', valueGetter: (_, row) => formatBytes(row.sizeBytes, lang) || '—' },
      {
        field: 'status',
        headerName: t('staffGameBackups.fields.status'),
        flex: 1,
        minWidth: phone ? 96 : 130,
        renderCell: ({ row }) => (
          <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
            <Chip size="small" color={statusColor[row.status]} variant={row.status === 'READY' ? 'outlined' : 'filled'} label={status(row)} data-testid="backup-status" data-status={row.status} />
            {row.error && (
              <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5 }}>
                {row.error}
              </Typography>
            )}
          </Box>
        ),
      },
      {
        field: 'pinned',
        headerName: t('staffGameBackups.fields.pinned'),
        width: 90,
        align: 'center',
        headerAlign: 'center',
        renderCell: ({ row }) => (row.pinned ? <PushPinIcon fontSize="small" color="primary" titleAccess={t('staffGameBackups.pinned')} data-testid="backup-pinned" /> : null),
      },
      { field: 'createdBy', headerName: t('staffGameBackups.fields.author'), width: 140, valueGetter: (_, row) => row.createdBy ?? '—' },
      ...(canRestore
        ? [
            {
              field: 'actions',
              headerName: '',
              width: phone ? 64 : 140,
              align: 'right',
              // A backup kept past its world's deletion has no world to go back into.
              renderCell: ({ row }) =>
                row.status === 'READY' &&
                !row.expiresAt && (
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={phone ? undefined : <RestoreIcon />}
                    aria-label={t('staffGameBackups.restore.label', { date: formatDate(row.createdAt, lang) })}
                    onClick={() => setRestoring(row)}
                    sx={phone ? { minWidth: 0, px: 1 } : undefined}
                  >
                    {phone ? <RestoreIcon fontSize="small" /> : t('staffGameBackups.restore.open')}
                  </Button>
                ),
            } satisfies GridColDef<Backup>,
          ]
        : []),
    ];
  }, [t, lang, phone, canRestore]);

  return (
    <Box component="section" sx={{ mt: 4 }} data-testid="staff-backups" aria-labelledby="staff-backups-title">
      <Typography variant="h6" component="h2" id="staff-backups-title" sx={{ mb: 1 }}>
        {t('staffGameBackups.title')}
      </Typography>
      {started && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setStarted(null)} data-testid="restore-started">
          {t('staffGameBackups.restore.started', { date: formatDate(started.createdAt, lang) })}
        </Alert>
      )}
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      {!tableQuery.error && (
        <DataGrid
          {...asGridProps<Backup>(dataGridProps)}
          {...defaults}
          columns={columns}
          aria-label={t('staffGameBackups.title')}
          disableColumnSorting
          getRowHeight={() => 'auto'}
          columnVisibilityModel={phone ? { kind: false, sizeBytes: false, pinned: false, createdBy: false } : {}}
          localeText={{ ...defaults.localeText, noRowsLabel: t('staffGameBackups.none') }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      )}
      {restoring && (
        <RestoreDialog
          game={game}
          backup={restoring}
          onClose={() => setRestoring(null)}
          onDone={(backup) => {
            setStarted(backup);
            onRestored();
          }}
        />
      )}
    </Box>
  );
}
