import { Box, Chip, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { StaffUser } from '../../../contract/staff.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate, formatNumber } from '../../ui/format.ts';
import { FilterBar, LoadFailure, PageTitle, SearchField, ShowLink, useFilteredGrid } from '../lists.tsx';

/** Every account, found by a prefix of its name, email or Minecraft name; sorted by name, date or balance. */
export function UserList() {
  const { t, i18n } = useTranslation('staff');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffUser, 'q'>('users', ['q'], {
    field: 'createdAt',
    order: 'desc',
  });
  const columns: GridColDef<StaffUser>[] = [
    {
      field: 'name',
      headerName: t('users.fields.name'),
      flex: 1,
      minWidth: 180,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
          <ShowLink resource="users" id={row.id}>
            {row.name}
          </ShowLink>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {row.email}
          </Typography>
        </Box>
      ),
    },
    { field: 'mcName', headerName: t('users.fields.mcName'), width: 150, sortable: false, valueFormatter: (value: string | null) => value ?? '—' },
    {
      field: 'roles',
      headerName: t('users.fields.roles'),
      width: 170,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5}>
          {(row.roles.length ? row.roles : ['player']).map((role) => (
            <Chip key={role} size="small" variant={role === 'player' ? 'outlined' : 'filled'} label={t(`users.roles.${role}`, role)} color={role === 'staff' ? 'secondary' : 'default'} />
          ))}
        </Stack>
      ),
    },
    { field: 'balance', headerName: t('users.fields.balance'), type: 'number', width: 110, valueFormatter: (value: number) => formatNumber(value, i18n.language) },
    { field: 'createdAt', headerName: t('users.fields.createdAt'), width: 170, valueFormatter: (value: string) => formatDate(value, i18n.language) },
  ];
  return (
    <List resource="users" title={<PageTitle>{t('users.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <SearchField label={t('users.search')} value={values.q} onSearch={(q) => setFilter('q', q)} testId="users-search" />
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="users-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('users.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ mcName: !phone, roles: !phone, createdAt: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
    </List>
  );
}
