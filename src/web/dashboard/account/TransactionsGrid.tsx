import { Box, Card, CardContent, CardHeader, Typography, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { LedgerEntry } from '../../../contract/credits.ts';
import { EmptyState, LoadError, formatDate, useErrorMessage } from '../../site/store/shared.tsx';
import { useResourceGrid } from '../lists.tsx';

/** The player's whole credit ledger (purchases, bonuses, servers, renewals), newest first. */
export function TransactionsGrid() {
  const { t, i18n } = useTranslation('credits');
  const errorMessage = useErrorMessage();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const { gridProps, error, reload, isEmpty } = useResourceGrid<LedgerEntry>('transactions', { pageSize: 10 });
  const columns: GridColDef<LedgerEntry>[] = [
    { field: 'createdAt', headerName: t('account.transactions.date'), width: 170, valueFormatter: (value: string) => formatDate(value, i18n.language) },
    {
      field: 'reason',
      headerName: t('account.transactions.reason'),
      flex: 1,
      minWidth: 140,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          {row.reason}
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
            {formatDate(row.createdAt, i18n.language)}
          </Typography>
        </Box>
      ),
    },
    {
      field: 'amount',
      headerName: t('account.transactions.amount'),
      type: 'number',
      width: 90,
      renderCell: ({ row }) => (
        <Box component="span" sx={{ color: row.amount < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}>
          {row.amount > 0 ? '+' : ''}
          {row.amount}
        </Box>
      ),
    },
    { field: 'balanceAfter', headerName: t('account.transactions.balanceAfter'), type: 'number', width: 120 },
  ];
  return (
    <Card>
      <CardHeader title={t('account.transactions.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {error && <LoadError message={`${t('account.loadError')} ${errorMessage(error)}`} onRetry={reload} />}
        {isEmpty && <EmptyState title={t('account.transactions.empty')} />}
        {!error && !isEmpty && (
          <Box data-testid="transactions-grid">
          <DataGrid
            {...gridProps}
            columns={columns}
            aria-label={t('account.transactions.title')}
            getRowHeight={() => 'auto'}
            // A phone shows the date under the reason, not in its own column.
            columnVisibilityModel={{ createdAt: !phone, balanceAfter: !phone }}
            sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
          />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
