import { useMemo } from 'react';
import { Stack } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { EditButton, List, ShowButton, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { TournamentSummary } from '../../../contract/tournaments.ts';
import type { ApiError } from '../../app/api.ts';
import { formatDate, useLocalized } from '../../ui/format.ts';
import { asGridProps, useGridDefaults, usePhoneColumns, ViewTitle } from '../common.tsx';

/** Every tournament, latest start first: its name, status, start, entrants and winner. */
export function TournamentList() {
  const { t, i18n } = useTranslation('staff');
  const localized = useLocalized();
  const lang = i18n.language;
  const { dataGridProps } = useDataGrid<TournamentSummary, ApiError>({ resource: 'tournaments', pagination: { pageSize: 20 }, sorters: { mode: 'off' }, filters: { mode: 'off' } });
  const columns = useMemo<GridColDef<TournamentSummary>[]>(
    () => [
      { field: 'name', headerName: t('tournaments.fields.name'), flex: 1, minWidth: 140, valueGetter: (_, row) => localized(row.name) },
      { field: 'status', headerName: t('tournaments.fields.status'), width: 120, valueGetter: (_, row) => t(`tournaments.status.${row.status}`) },
      { field: 'startsAt', headerName: t('tournaments.fields.startsAt'), width: 170, valueGetter: (_, row) => formatDate(row.startsAt, lang) },
      { field: 'entrants', headerName: t('tournaments.fields.entrants'), width: 110, valueGetter: (_, row) => `${row.entrants} / ${row.maxEntrants}` },
      { field: 'winner', headerName: t('tournaments.fields.winner'), width: 150, valueGetter: (_, row) => row.winner?.mcName ?? row.winner?.name ?? '' },
      {
        field: 'actions',
        headerName: '',
        width: 90,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ height: '100%', alignItems: 'center' }}>
            <ShowButton hideText recordItemId={row.id} aria-label={t('buttons.show')} />
            {row.status === 'SCHEDULED' && <EditButton hideText recordItemId={row.id} aria-label={t('buttons.edit')} />}
          </Stack>
        ),
      },
    ],
    [t, lang, localized],
  );
  const phoneColumns = usePhoneColumns(['startsAt', 'entrants', 'winner']);
  return (
    <List title={<ViewTitle>{t('tournaments.titles.list')}</ViewTitle>} createButtonProps={{ children: t('tournaments.create') }}>
      <DataGrid {...asGridProps<TournamentSummary>(dataGridProps)} {...useGridDefaults()} columns={columns} columnVisibilityModel={phoneColumns} disableColumnSorting />
    </List>
  );
}
