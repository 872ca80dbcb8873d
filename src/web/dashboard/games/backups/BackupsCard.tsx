import { useCallback, useRef } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, CircularProgress, Divider, LinearProgress, Stack, Typography, type ChipProps } from '@mui/material';
import {
  Backup as BackupIcon,
  DeleteOutline as DeleteOutlineIcon,
  Download as DownloadIcon,
  PushPin as PushPinIcon,
  PushPinOutlined as PushPinOutlinedIcon,
  SettingsBackupRestore as RestoreIcon,
  UploadFile as UploadFileIcon,
} from '@mui/icons-material';
import { useCreate, useCustom, useCustomMutation, useDelete, useSubscription, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Backup, BackupLink, BackupPatch, BackupPrune } from '../../../../contract/backups.ts';
import type { ApiError } from '../../../app/api.ts';
import { ActionIcon } from '../../../ui/ActionIcon.tsx';
import { downloadFrom } from '../../../ui/download.ts';
import { browserZone } from '../schedules/rule.ts';
import { formatBytes, formatDate } from '../../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction, type Confirmation, type RunAction } from '../../../ui/useConfirmedAction.tsx';
import { ListPagination, usePaged } from '../../lists.tsx';
import { NightlyBackupSettings } from './NightlyBackupSettings.tsx';

type BackupStatus = Backup['status'];

const statusColors: Record<BackupStatus, ChipProps['color']> = { PENDING: 'info', RUNNING: 'info', READY: 'success', FAILED: 'error' };
const inProgress = (status: BackupStatus) => status === 'PENDING' || status === 'RUNNING';

/** What the next backup would prune, read when an action is about to ask; null when the API could not say. */
type Prune = () => Promise<BackupPrune | null>;

/**
 * Asks, just before a confirmation, what an action's backup would prune: one now or before an
 * upload, or, with `restoring`, the one taken before restoring that backup (`/backups/next-prune`).
 * Read on demand only, once and quietly: the confirmation goes without the warning when it fails.
 */
function usePrune(gameId: string, restoring?: string): Prune {
  const { query } = useCustom<BackupPrune & BaseRecord, ApiError>({
    url: nextPruneUrl(gameId),
    method: 'get',
    config: { query: restoring ? { restoring } : {} },
    queryOptions: { enabled: false, retry: false },
    errorNotification: false,
  });
  const { refetch } = query;
  return useCallback(async () => {
    const read = await refetch();
    return read.isSuccess ? read.data.data : null;
  }, [refetch]);
}

const nextPruneUrl = (gameId: string) => `/v1/game/${encodeURIComponent(gameId)}/backups/next-prune`;

/** The quota's state, read again whenever the game's backups change. */
function useQuota(gameId: string) {
  const { query } = useCustom<BackupPrune & BaseRecord, ApiError>({ url: nextPruneUrl(gameId), method: 'get', queryOptions: { placeholderData: (previous) => previous } });
  const { refetch } = query;
  useSubscription({ channel: 'resources/backups', types: ['*'], onLiveEvent: () => void refetch() });
  return query.data?.data.quota;
}

/**
 * A confirmation's text, followed by what the action's backup will prune, each named by its date
 * and kind (or why it was taken), so nobody loses a backup without being told.
 */
function usePruneWarning() {
  const { t, i18n } = useTranslation('games');
  return (text: string, pruned: BackupPrune) => {
    if (pruned.data.length === 0) return text;
    const names = pruned.data.map((b) => t('backups.named', { date: formatDate(b.createdAt, i18n.language), kind: b.reason ? t(`backups.reason.${b.reason}`) : t(`backups.kind.${b.kind}`) }));
    return `${text} ${t('backups.prunes', { count: pruned.data.length, kept: pruned.quota.kept, names: names.join(', ') })}`;
  };
}

/**
 * The game's world backups: take one now, the nightly setting, and the list, newest first, read
 * again live as each backup moves on (`resource-change` of `backups`). A ready backup can be
 * restored, downloaded, pinned or deleted; the others only deleted once they stopped running.
 */
export function BackupsCard({ gameId, canRemove = true }: { gameId: string; canRemove?: boolean }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const paged = usePaged<Backup>('backups', { params: { gameId }, pageSize: 10 });
  const { run, busy, result, dialog } = useConfirmedAction();
  const { mutateAsync: create } = useCreate<Backup, ApiError>();
  const running = paged.rows.some((b) => inProgress(b.status));
  const quota = useQuota(gameId);
  const prune = usePrune(gameId);
  const warning = usePruneWarning();

  // Asks first only when the backup will prune one, naming it.
  const backUpNow = async () => {
    const pruned = await prune();
    void run({
      confirm: pruned?.data.length ? { title: t('backups.nowTitle'), text: warning(t('backups.nowText'), pruned), confirm: t('backups.now'), danger: true } : undefined,
      action: () => create({ resource: 'backups', meta: { params: { gameId } }, values: {}, successNotification: false, errorNotification: false }),
      success: t('backups.started'),
      failure: t('backups.createFailed'),
    });
  };

  return (
    <Card data-testid="backups">
      {dialog}
      <CardHeader
        title={t('backups.title')}
        subheader={t('backups.intro')}
        titleTypographyProps={{ variant: 'h4', component: 'h2' }}
        subheaderTypographyProps={{ variant: 'body2', sx: { mt: 0.5 } }}
      />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
          <Button variant="contained" startIcon={<BackupIcon />} disabled={busy || running || paged.loading} onClick={() => void backUpNow()}>
            {t('backups.now')}
          </Button>
          <WorldUpload gameId={gameId} run={run} prune={prune} disabled={busy || running || paged.loading} />
          {quota && (
            <Typography variant="body2" color={quota.count > quota.kept ? 'warning.main' : 'text.secondary'} data-testid="backups-quota" title={t('backups.quotaHelp', { kept: quota.kept })}>
              {t('backups.quota', { used: quota.count, kept: quota.kept })}
            </Typography>
          )}
          {running && (
            <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
              <CircularProgress size={16} color="inherit" />
              <Typography variant="body2">{t('backups.running')}</Typography>
            </Box>
          )}
        </Box>
        <ActionAlert result={result} testId="backup-result" />

        <NightlyBackupSettings gameId={gameId} />
        <Divider sx={{ my: 2 }} />

        {paged.error && <LoadError message={errorMessage(paged.error)} onRetry={paged.reload} />}
        {!paged.error && paged.loading && (
          <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={28} aria-label={t('backups.loading')} />
          </Box>
        )}
        {!paged.error && !paged.loading && paged.total === 0 && (
          <EmptyState title={t('backups.empty')}>
            <Typography color="text.secondary">{t('backups.emptyHelp')}</Typography>
          </EmptyState>
        )}
        {!paged.error && paged.rows.length > 0 && (
          <>
            <Stack component="ul" aria-label={t('backups.listLabel')} spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {paged.rows.map((backup) => (
                <BackupItem key={backup.id} gameId={gameId} backup={backup} run={run} busy={busy} onChanged={paged.reload} canRemove={canRemove} />
              ))}
            </Stack>
            {paged.total > paged.pagination.rowsPerPage && <ListPagination {...paged.pagination} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Replaces the world by a .zip the player picks (from single-player or another host), after a
 * confirmation naming the file: the API checks it before anything changes and backs the current
 * world up first. The browser streams the file; the API's refusal (too large, not a world, unsafe)
 * is shown in place.
 */
function WorldUpload({ gameId, run, prune, disabled }: { gameId: string; run: RunAction; prune: Prune; disabled: boolean }) {
  const { t, i18n } = useTranslation('games');
  const input = useRef<HTMLInputElement>(null);
  const { mutateAsync: call } = useCustomMutation<Record<string, never>, ApiError>();
  const warning = usePruneWarning();
  const picked = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const text = t('backups.uploadText', { file: file.name, size: formatBytes(file.size, i18n.language) });
    const pruned = await prune();
    void run({
      confirm: { title: t('backups.uploadTitle'), text: pruned ? warning(text, pruned) : text, confirm: t('backups.uploadConfirm'), danger: true },
      // The API wants application/zip whatever the system named the file's type (Windows says x-zip-compressed).
      action: () =>
        call({ url: `/v1/game/${encodeURIComponent(gameId)}/world`, method: 'put', values: new Blob([file], { type: 'application/zip' }), successNotification: false, errorNotification: false }),
      success: t('backups.uploadStarted', { file: file.name }),
      failure: t('backups.uploadFailed'),
    });
  };
  return (
    <>
      <input ref={input} type="file" accept=".zip,application/zip" hidden data-testid="world-file" onChange={(e) => void picked(e.target.files?.[0])} />
      <Button variant="outlined" startIcon={<UploadFileIcon />} disabled={disabled} onClick={() => input.current?.click()}>
        {t('backups.upload')}
      </Button>
    </>
  );
}

/** One backup: when, how big, which kind and by whom, its status, and what can be done with it. */
function BackupItem({ gameId, backup, run, busy, onChanged, canRemove }: { gameId: string; backup: Backup; run: RunAction; busy: boolean; onChanged: () => void; canRemove: boolean }) {
  const { t, i18n } = useTranslation('games');
  const { mutateAsync: call } = useCustomMutation<BackupLink & Backup, ApiError>();
  const { mutateAsync: remove } = useDelete<Backup, ApiError>();
  const url = (action = '') => `/v1/game/${encodeURIComponent(gameId)}/backups/${encodeURIComponent(backup.id)}${action}`;
  const quiet = { successNotification: false, errorNotification: false } as const;
  const date = formatDate(backup.createdAt, i18n.language);
  const ready = backup.status === 'READY';
  const warning = usePruneWarning();
  const prune = usePrune(gameId, backup.id);
  const details = [
    formatBytes(backup.sizeBytes, i18n.language),
    backup.reason ? t(`backups.reason.${backup.reason}`) : '',
    backup.createdBy ? t('backups.by', { name: backup.createdBy }) : '',
    backup.note ?? '',
  ].filter(Boolean);

  const restore = async () => {
    const text = t('backups.restoreText', { date });
    const pruned = await prune();
    const confirm: Confirmation = { title: t('backups.restoreTitle'), text: pruned ? warning(text, pruned) : text, confirm: t('backups.restore'), danger: true };
    void run({
      confirm,
      action: async () => {
        await call({ url: url('/restore'), method: 'post', values: {}, ...quiet });
        onChanged();
      },
      success: t('backups.restoreStarted', { date }),
      failure: t('backups.failed'),
    });
  };
  const download = () =>
    void run({
      // The file named after the backup's time on the player's clock, not UTC's.
      action: async () => downloadFrom(`${(await call({ url: url('/link'), method: 'post', values: {}, ...quiet })).data.url}?tz=${encodeURIComponent(browserZone())}`),
      failure: t('backups.failed'),
    });
  const pin = () =>
    void run({
      action: async () => {
        const values: BackupPatch = { pinned: !backup.pinned };
        await call({ url: url(), method: 'patch', values, ...quiet });
        onChanged();
      },
      failure: t('backups.failed'),
    });
  const del = () =>
    void run({
      confirm: { title: t('backups.deleteTitle'), text: t('backups.deleteText', { date }), confirm: t('backups.delete'), danger: true },
      action: () => remove({ resource: 'backups', id: backup.id, meta: { params: { gameId } }, ...quiet }),
      failure: t('backups.failed'),
    });

  return (
    <Box
      component="li"
      data-testid="backup-item"
      data-kind={backup.kind}
      data-backup-id={backup.id}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1 }}
    >
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>{date}</Typography>
          <Chip size="small" variant="outlined" label={t(`backups.kind.${backup.kind}`)} />
          <BackupStatusChip status={backup.status} />
          {backup.pinned && <PushPinIcon fontSize="small" color="primary" titleAccess={t('backups.pinned')} data-testid="backup-pinned" />}
        </Box>
        {details.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {details.join(' · ')}
          </Typography>
        )}
        {backup.status === 'RUNNING' && backup.progress !== null && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1, maxWidth: 360 }}>
            <LinearProgress variant="determinate" value={backup.progress} aria-label={t('backups.progressOf', { date })} sx={{ flex: 1, height: 6, borderRadius: 3 }} />
            <Typography variant="caption" color="text.secondary" data-testid="backup-progress">
              {t('backups.percent', { value: backup.progress })}
            </Typography>
          </Box>
        )}
        {backup.expiresAt && (
          <Alert severity="warning" variant="outlined" sx={{ mt: 1, py: 0 }}>
            {t('backups.keptUntil', { date: formatDate(backup.expiresAt, i18n.language) })}
          </Alert>
        )}
        {backup.status === 'FAILED' && backup.error && (
          <Alert severity="error" variant="outlined" sx={{ mt: 1, py: 0 }}>
            {t('backups.failedBecause', { error: backup.error })}
          </Alert>
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, ml: 'auto', '& .MuiButton-root': { minWidth: 0, px: { xs: 0.75, sm: 1 } } }}>
        {ready && (
          <>
            {/* A backup kept past its world's deletion has no world to go back into. */}
            {!backup.expiresAt && (
              <Button size="small" startIcon={<RestoreIcon />} disabled={busy} onClick={() => void restore()}>
                {t('backups.restore')}
              </Button>
            )}
            <Button size="small" startIcon={<DownloadIcon />} disabled={busy} onClick={download}>
              {t('backups.download')}
            </Button>
            {/* Only the owner unpins: an unpinned backup may be pruned (docs/product.md, "Backups"). */}
            {(!backup.pinned || canRemove) && (
              <ActionIcon
                title={backup.pinned ? t('backups.unpin') : t('backups.pin')}
                aria-label={t(backup.pinned ? 'backups.unpinOf' : 'backups.pinOf', { date })}
                aria-pressed={backup.pinned}
                color={backup.pinned ? 'primary' : 'default'}
                size="small"
                disabled={busy}
                onClick={pin}
              >
                {backup.pinned ? <PushPinIcon /> : <PushPinOutlinedIcon />}
              </ActionIcon>
            )}
          </>
        )}
        {canRemove && !inProgress(backup.status) && (
          <ActionIcon title={t('backups.delete')} aria-label={t('backups.deleteOf', { date })} size="small" disabled={busy} onClick={del}>
            <DeleteOutlineIcon />
          </ActionIcon>
        )}
      </Box>
    </Box>
  );
}

/** A backup's status; a spinner while it waits or runs; `data-status` gives tests the status whatever the language. */
function BackupStatusChip({ status }: { status: BackupStatus }) {
  const { t } = useTranslation('games');
  return (
    <Chip
      size="small"
      color={statusColors[status]}
      label={t(`backups.status.${status}`)}
      // Decorative: the status is the chip's label, and a running backup's progress has its own bar.
      icon={inProgress(status) ? <CircularProgress size={12} color="inherit" aria-hidden sx={{ ml: '6px !important' }} /> : undefined}
      data-testid="backup-status"
      data-status={status}
    />
  );
}
