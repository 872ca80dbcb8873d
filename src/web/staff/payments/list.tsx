import { Box, Typography, useMediaQuery, useTheme } from '@mui/material';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { paymentStatuses } from '../../../contract/payments.ts';
import type { StaffPayment } from '../../../contract/staff.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate, formatNumber } from '../../ui/format.ts';
import { FilterBar, FilterSelect, LoadFailure, PageTitle, ShowLink, useFilteredGrid } from '../lists.tsx';
import { UserPicker } from '../users/UserPicker.tsx';
import { PaymentStatusChip } from './PaymentStatusChip.tsx';

/** Card payments of every user: by user and status; sorted by date or amount. */
export function PaymentList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffPayment, 'userId' | 'status'>('payments', ['userId', 'status'], { field: 'createdAt', order: 'desc' });
  const columns: GridColDef<StaffPayment>[] = [
    {
      field: 'createdAt',
      headerName: t('payments.fields.createdAt'),
      width: 180,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4 }}>
          <ShowLink resource="payments" id={row.id}>
            {formatDate(row.createdAt, lang)}
          </ShowLink>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t(`payments.kinds.${row.kind}`)}
          </Typography>
          {/* A phone has no status column: the status goes under the date. */}
          {phone && <PaymentStatusChip status={row.status} />}
        </Box>
      ),
    },
    {
      field: 'userName',
      headerName: t('payments.fields.user'),
      width: 150,
      sortable: false,
      renderCell: ({ row }) => (
        <ShowLink resource="users" id={row.userId}>
          {row.userName}
        </ShowLink>
      ),
    },
    { field: 'status', headerName: t('payments.fields.status'), width: 130, sortable: false, renderCell: ({ row }) => <PaymentStatusChip status={row.status} /> },
    { field: 'amountCents', headerName: t('payments.fields.amount'), type: 'number', width: 110, valueFormatter: (value: number, row) => formatMoney(value, row.currency, lang) },
    {
      field: 'credits',
      headerName: t('payments.fields.credits'),
      type: 'number',
      width: 100,
      sortable: false,
      valueFormatter: (value: number, row) => (row.bonusCredits ? `${formatNumber(value, lang)} + ${formatNumber(row.bonusCredits, lang)}` : formatNumber(value, lang)),
    },
    {
      field: 'providerId',
      headerName: t('payments.fields.provider'),
      flex: 1,
      minWidth: 170,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
          {row.provider}
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', fontFamily: 'monospace' }}>
            {row.providerId ?? '—'}
          </Typography>
        </Box>
      ),
    },
  ];
  return (
    <List resource="payments" title={<PageTitle>{t('payments.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <UserPicker label={t('payments.fields.user')} value={values.userId} onChange={(id) => setFilter('userId', id)} testId="payments-user" />
        <FilterSelect
          label={t('payments.fields.status')}
          value={values.status}
          onChange={(v) => setFilter('status', v)}
          options={paymentStatuses.map((s) => ({ value: s, label: t(`payments.status.${s}`) }))}
          testId="payments-status"
        />
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="payments-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('payments.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ userName: !phone, status: !phone, credits: !phone, providerId: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
    </List>
  );
}
