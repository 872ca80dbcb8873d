import { Card, CardContent, CardHeader } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { LedgerEntry } from '../../../../contract/credits.ts';
import { LedgerGrid } from '../../../ui/LedgerGrid.tsx';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useResourceGrid } from '../../lists.tsx';

/** The ledger entries a game caused (its first period, renewals), newest first, paged on the server. */
export function TransactionsCard({ gameId }: { gameId: string }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { gridProps, error, reload, isEmpty } = useResourceGrid<LedgerEntry>('gameTransactions', { params: { gameId }, pageSize: 10 });
  const labels = { title: t('transactions.title'), date: t('transactions.date'), reason: t('transactions.reason'), amount: t('transactions.amount'), balanceAfter: t('transactions.balanceAfter') };
  return (
    <Card>
      <CardHeader title={t('transactions.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {error && <LoadError message={errorMessage(error)} onRetry={reload} />}
        {isEmpty && <EmptyState title={t('transactions.empty')} />}
        {!error && !isEmpty && <LedgerGrid gridProps={gridProps} labels={labels} />}
      </CardContent>
    </Card>
  );
}
