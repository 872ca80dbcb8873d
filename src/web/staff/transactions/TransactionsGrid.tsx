import { Box, Typography, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, type DataGridProps, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { StaffTransaction } from '../../../contract/staff.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate, formatNumber } from '../../ui/format.ts';
import { ShowLink } from '../lists.tsx';
import { useMessages } from '../../ui/useMessages.ts';

/** Ledger rows of every user (or, without `showUser`, of one), as `useDataGrid` pages them. */
export function TransactionsGrid({ gridProps, showUser = true, testId }: { gridProps: Omit<DataGridProps<StaffTransaction>, 'columns'>; showUser?: boolean; testId: string }) {
  const { t, i18n } = useTranslation('staff');
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const messages = useMessages();
  const columns: GridColDef<StaffTransaction>[] = [
    { field: 'createdAt', headerName: t('staffTransactions.fields.createdAt'), width: 170, valueFormatter: (value: string) => formatDate(value, i18n.language) },
    {
      field: 'userName',
      headerName: t('staffTransactions.fields.user'),
      width: 150,
      sortable: false,
      renderCell: ({ row }) => (
        <ShowLink resource="users" id={row.userId}>
          {row.userName}
        </ShowLink>
      ),
    },
    { field: 'kind', headerName: t('staffTransactions.fields.kind'), width: 170, sortable: false, valueFormatter: (value: string) => t(`staffTransactions.kinds.${value}`, value) },
    {
      field: 'reason',
      headerName: t('staffTransactions.fields.reason'),
      flex: 1,
      minWidth: 160,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          {messages.reason(row)}
          {/* A phone has no room for the date, kind and user columns: they go under the reason. */}
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
            {[formatDate(row.createdAt, i18n.language), t(`staffTransactions.kinds.${row.kind}`, row.kind), showUser ? row.userName : null].filter(Boolean).join(' · ')}
          </Typography>
        </Box>
      ),
    },
    {
      field: 'amount',
      headerName: t('staffTransactions.fields.amount'),
      type: 'number',
      width: 100,
      renderCell: ({ row }) => (
        <Box component="span" sx={{ color: row.amount < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}>
          {row.amount > 0 ? '+' : ''}
          {formatNumber(row.amount, i18n.language)}
        </Box>
      ),
    },
    {
      field: 'balanceAfter',
      headerName: t('staffTransactions.fields.balanceAfter'),
      type: 'number',
      width: 110,
      sortable: false,
      valueFormatter: (value: number) => formatNumber(value, i18n.language),
    },
  ];
  return (
    <Box data-testid={testId}>
      <DataGrid
        {...defaults}
        {...gridProps}
        columns={columns}
        aria-label={t('staffTransactions.titles.list')}
        getRowHeight={() => 'auto'}
        columnVisibilityModel={{ createdAt: !phone, userName: showUser && !phone, kind: !phone, balanceAfter: !phone }}
        sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
      />
    </Box>
  );
}
