import { TextField } from '@mui/material';
import { List } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import { ledgerKinds } from '../../../contract/credits.ts';
import type { StaffTransaction } from '../../../contract/staff.ts';
import { FilterBar, FilterSelect, LoadFailure, PageTitle, useFilteredGrid } from '../lists.tsx';
import { UserPicker } from '../users/UserPicker.tsx';
import { TransactionsGrid } from './TransactionsGrid.tsx';

type Filter = 'userId' | 'kind' | 'from' | 'to';

/** The whole ledger, every user's: by user, kind and dates; sorted by date or amount. */
export function TransactionList() {
  const { t } = useTranslation('staff');
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffTransaction, Filter>('staffTransactions', ['userId', 'kind', 'from', 'to'], {
    field: 'createdAt',
    order: 'desc',
  });
  const date = (field: 'from' | 'to') => (
    <TextField
      type="date"
      size="small"
      label={t(`staffTransactions.filters.${field}`)}
      value={values[field]}
      onChange={(e) => setFilter(field, e.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `transactions-${field}` } }}
    />
  );
  return (
    <List resource="staffTransactions" title={<PageTitle>{t('staffTransactions.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <UserPicker label={t('staffTransactions.fields.user')} value={values.userId} onChange={(id) => setFilter('userId', id)} testId="transactions-user" />
        <FilterSelect
          label={t('staffTransactions.fields.kind')}
          value={values.kind}
          onChange={(v) => setFilter('kind', v)}
          options={ledgerKinds.map((kind) => ({ value: kind, label: t(`staffTransactions.kinds.${kind}`) }))}
          testId="transactions-kind"
        />
        {date('from')}
        {date('to')}
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <TransactionsGrid gridProps={gridProps} testId="transactions-grid" />
    </List>
  );
}
