import { Box, Card, CardContent, CardHeader, Chip, Typography, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { GameActivityEntry } from '../../../../contract/activity.ts';
import { formatDate } from '../../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useResourceGrid } from '../../lists.tsx';

/** What an entry did, in words: the action's sentence with the values it carries (a name, a list, a version). */
function sentence(t: TFunction<'games'>, { action, detail }: GameActivityEntry): string {
  const text = (key: string, values: Record<string, unknown> = {}) => t(`activity.actions.${key}`, { ...values, defaultValue: action });
  switch (action) {
    case 'game.settings':
      return text(detail.restart === true ? 'game.settingsRestart' : 'game.settings');
    case 'game.autoRenew':
      return text(detail.autoRenew === true ? 'game.autoRenewOn' : 'game.autoRenewOff');
    case 'game.share':
      return text('game.share', { role: typeof detail.role === 'string' ? t(`sharing.roles.${detail.role}.name`, detail.role) : '' });
    case 'whitelist.toggle':
      return text(detail.enabled === true ? 'whitelist.on' : 'whitelist.off');
    case 'players.list':
    case 'players.group':
      return text(`${action}.${String(detail.type)}.${String(detail.action)}`, detail);
    case 'schedule.create':
    case 'schedule.update':
    case 'schedule.delete':
    case 'schedule.run':
      // Runs recorded before their task was are worded without it.
      return typeof detail.task === 'string' ? text(action, { task: t(`schedules.task.${detail.task}`, detail.task) }) : text(action, { context: 'unnamed' });
    default:
      return text(action, detail);
  }
}

/** Who did it: a player and the role they acted as, or the platform's staff. */
function Actor({ entry }: { entry: GameActivityEntry }) {
  const { t } = useTranslation('games');
  if (entry.by === 'STAFF') return <Typography sx={{ fontWeight: 600 }}>{t('activity.staff')}</Typography>;
  const role = entry.by === 'SHARED' ? t('activity.shared') : t(`sharing.roles.${entry.by}.name`);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.75 }}>
      <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {entry.actorName}
      </Typography>
      <Chip size="small" variant="outlined" label={role} data-testid="activity-role" />
    </Box>
  );
}

/**
 * The Activity tab (moderators and up): who did what on the server, newest first, paged on the
 * server; a phone shows who and when under the action.
 */
export default function ActivityCard({ gameId }: { gameId: string }) {
  const { t, i18n } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const { gridProps, error, reload, isEmpty } = useResourceGrid<GameActivityEntry>('gameActivity', { params: { gameId }, pageSize: 25 });
  const columns: GridColDef<GameActivityEntry>[] = [
    { field: 'at', headerName: t('activity.when'), width: 170, valueFormatter: (value: string) => formatDate(value, i18n.language) },
    { field: 'actorName', headerName: t('activity.who'), width: 260, renderCell: ({ row }) => <Actor entry={row} /> },
    {
      field: 'action',
      headerName: t('activity.what'),
      flex: 1,
      minWidth: 160,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere', py: 0.5 }} data-testid="activity-action">
          {phone && <Actor entry={row} />}
          {sentence(t, row)}
          {typeof row.detail.command === 'string' && (
            <Box component="code" sx={{ display: 'block', mt: 0.5, px: 0.75, py: 0.25, borderRadius: 1, bgcolor: 'action.hover', fontSize: '0.85em', width: 'fit-content', maxWidth: '100%' }}>
              {row.detail.command}
            </Box>
          )}
          {phone && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {formatDate(row.at, i18n.language)}
            </Typography>
          )}
        </Box>
      ),
    },
  ];
  return (
    <Card data-testid="activity-card">
      <CardHeader title={t('activity.title')} subheader={t('activity.intro')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} subheaderTypographyProps={{ variant: 'body2' }} />
      <CardContent sx={{ pt: 0 }}>
        {error && <LoadError message={`${t('activity.loadError')} ${errorMessage(error)}`} onRetry={reload} />}
        {isEmpty && <EmptyState title={t('activity.empty')} />}
        {!error && !isEmpty && (
          <DataGrid
            {...gridProps}
            columns={columns}
            aria-label={t('activity.title')}
            getRowHeight={() => 'auto'}
            columnVisibilityModel={{ at: !phone, actorName: !phone }}
            sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
          />
        )}
      </CardContent>
    </Card>
  );
}
