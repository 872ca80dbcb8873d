import { Box, Chip, Typography, useMediaQuery, useTheme } from '@mui/material';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { type StaffGame } from '../../../contract/games.ts';
import { gameStatuses } from '../../../contract/values.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { FilterBar, FilterSelect, LoadFailure, PageTitle, SearchField, ShowLink, useFilteredGrid } from '../lists.tsx';
import { UserPicker } from '../users/UserPicker.tsx';
import { GameStatusChip } from './GameStatusChip.tsx';

/** Every player's servers: by status, owner or part of the name; sorted by name, creation or period end. */
export function GameList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffGame, 'q' | 'status' | 'ownerId'>('staffGames', ['q', 'status', 'ownerId'], { field: 'createdAt', order: 'desc' });
  const columns: GridColDef<StaffGame>[] = [
    {
      field: 'name',
      headerName: t('staffGames.fields.name'),
      flex: 1,
      minWidth: 170,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
          <ShowLink resource="staffGames" id={row.id}>
            {row.name}
          </ShowLink>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {row.definitionName[lang]} · {row.packageName[lang]}
          </Typography>
        </Box>
      ),
    },
    { field: 'status', headerName: t('staffGames.fields.status'), width: 130, sortable: false, renderCell: ({ row }) => <GameStatusChip status={row.status} /> },
    {
      field: 'ownerName',
      headerName: t('staffGames.fields.owner'),
      width: 150,
      sortable: false,
      renderCell: ({ row }) => (
        <ShowLink resource="users" id={row.ownerId}>
          {row.ownerName}
        </ShowLink>
      ),
    },
    {
      field: 'periodEnd',
      headerName: t('staffGames.fields.periodEnd'),
      width: 190,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4 }}>
          {formatDate(row.periodEnd, lang)}
          {!row.autoRenew && <Chip size="small" variant="outlined" label={t('staffGames.noAutoRenew')} sx={{ ml: 0.5 }} />}
        </Box>
      ),
    },
    { field: 'createdAt', headerName: t('staffGames.fields.createdAt'), width: 170, valueFormatter: (value: string) => formatDate(value, lang) },
  ];
  return (
    <List resource="staffGames" title={<PageTitle>{t('staffGames.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <SearchField label={t('staffGames.search')} value={values.q} onSearch={(q) => setFilter('q', q)} testId="games-search" />
        <FilterSelect
          label={t('staffGames.fields.status')}
          value={values.status}
          onChange={(v) => setFilter('status', v)}
          options={gameStatuses.map((s) => ({ value: s, label: t(`staffGames.status.${s}`) }))}
          testId="games-status"
        />
        <UserPicker label={t('staffGames.fields.owner')} value={values.ownerId} onChange={(id) => setFilter('ownerId', id)} testId="games-owner" />
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="games-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('staffGames.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ ownerName: !phone, createdAt: !phone, periodEnd: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
    </List>
  );
}
