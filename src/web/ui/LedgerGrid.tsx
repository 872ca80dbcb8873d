import { Box, Typography, useMediaQuery, useTheme } from '@mui/material';
import { DataGrid, type DataGridProps, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { LedgerEntry } from '../../contract/credits.ts';
import { useMessages } from './useMessages.ts';
import { formatDate, formatNumber } from './format.ts';

export interface LedgerLabels {
  title: string;
  date: string;
  reason: string;
  amount: string;
  balanceAfter: string;
}

/**
 * Ledger entries in a data grid paged on the server (`gridProps` from useResourceGrid): the whole
 * account's on the account page, one game's on its page.
 */
export function LedgerGrid({ gridProps, labels }: { gridProps: Omit<DataGridProps<LedgerEntry>, 'columns'>; labels: LedgerLabels }) {
  const { i18n } = useTranslation();
  // In the language on screen, from each entry's message: switching language re-renders the reasons.
  const messages = useMessages();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const columns: GridColDef<LedgerEntry>[] = [
    { field: 'createdAt', headerName: labels.date, width: 170, valueFormatter: (value: string) => formatDate(value, i18n.language) },
    {
      field: 'reason',
      headerName: labels.reason,
      flex: 1,
      minWidth: 140,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          {messages.reason(row)}
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
            {formatDate(row.createdAt, i18n.language)}
          </Typography>
        </Box>
      ),
    },
    {
      field: 'amount',
      headerName: labels.amount,
      type: 'number',
      width: 100,
      renderCell: ({ row }) => (
        <Box component="span" sx={{ color: row.amount < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}>
          {row.amount > 0 ? '+' : ''}
          {formatNumber(row.amount, i18n.language)}
        </Box>
      ),
    },
    { field: 'balanceAfter', headerName: labels.balanceAfter, type: 'number', width: 120, valueFormatter: (value: number) => formatNumber(value, i18n.language) },
  ];
  return (
    <DataGrid
      {...gridProps}
      columns={columns}
      aria-label={labels.title}
      getRowHeight={() => 'auto'}
      // A phone shows the date under the reason, not in its own column.
      columnVisibilityModel={{ createdAt: !phone, balanceAfter: !phone }}
      sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
    />
  );
}
