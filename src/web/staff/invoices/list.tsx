import { Box, Typography, useMediaQuery, useTheme } from '@mui/material';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { StaffInvoice } from '../../../contract/staff.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { FilterBar, LoadFailure, PageTitle, ShowLink, useFilteredGrid } from '../lists.tsx';
import { UserPicker } from '../users/UserPicker.tsx';
import { InvoicePdfButton } from './InvoicePdfButton.tsx';

/** Invoices and credit notes of every user, each with its PDF: by user; sorted by date or number. */
export function InvoiceList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffInvoice, 'userId'>('staffInvoices', ['userId'], { field: 'issuedAt', order: 'desc' });
  const columns: GridColDef<StaffInvoice>[] = [
    {
      field: 'number',
      headerName: t('staffInvoices.fields.number'),
      width: 150,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4 }}>
          <ShowLink resource="staffInvoices" id={row.id}>
            {row.number}
          </ShowLink>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t(`staffInvoices.kinds.${row.kind}`)}
          </Typography>
        </Box>
      ),
    },
    { field: 'issuedAt', headerName: t('staffInvoices.fields.issuedAt'), width: 170, valueFormatter: (value: string) => formatDate(value, lang) },
    {
      field: 'userName',
      headerName: t('staffInvoices.fields.user'),
      flex: 1,
      minWidth: 140,
      sortable: false,
      renderCell: ({ row }) => (
        <ShowLink resource="users" id={row.userId}>
          {row.userName}
        </ShowLink>
      ),
    },
    { field: 'totalCents', headerName: t('staffInvoices.fields.total'), type: 'number', width: 100, sortable: false, valueFormatter: (value: number, row) => formatMoney(value, row.currency, lang) },
    { field: 'pdf', headerName: t('staffInvoices.fields.pdf'), width: 60, sortable: false, renderCell: ({ row }) => <InvoicePdfButton id={row.id} number={row.number} /> },
  ];
  return (
    <List resource="staffInvoices" title={<PageTitle>{t('staffInvoices.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <UserPicker label={t('staffInvoices.fields.user')} value={values.userId} onChange={(id) => setFilter('userId', id)} testId="invoices-user" />
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="invoices-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('staffInvoices.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ issuedAt: !phone, userName: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
    </List>
  );
}
