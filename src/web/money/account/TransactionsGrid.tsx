import { Box, Card, CardContent, CardHeader } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LedgerEntry } from '../../../contract/credits.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../ui/states.tsx';
import { LedgerGrid } from '../../ui/LedgerGrid.tsx';
import { useResourceGrid } from '../../dashboard/lists.tsx';

/** The player's whole credit ledger (purchases, bonuses, servers, renewals), newest first. */
export function TransactionsGrid() {
  const { t } = useTranslation('credits');
  const errorMessage = useErrorMessage();
  const { gridProps, error, reload, isEmpty } = useResourceGrid<LedgerEntry>('transactions', { pageSize: 10 });
  const labels = {
    title: t('account.transactions.title'),
    date: t('account.transactions.date'),
    reason: t('account.transactions.reason'),
    amount: t('account.transactions.amount'),
    balanceAfter: t('account.transactions.balanceAfter'),
  };
  return (
    <Card>
      <CardHeader title={t('account.transactions.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {error && <LoadError message={`${t('account.loadError')} ${errorMessage(error)}`} onRetry={reload} />}
        {isEmpty && <EmptyState title={t('account.transactions.empty')} />}
        {!error && !isEmpty && (
          <Box data-testid="transactions-grid">
            <LedgerGrid gridProps={gridProps} labels={labels} />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
