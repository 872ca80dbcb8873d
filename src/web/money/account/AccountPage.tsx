import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { CreditButton } from '../../shell/CreditButton.tsx';
import { KeptBackupsCard } from '../../dashboard/games/backups/KeptBackupsCard.tsx';
import { GamePaymentsCard } from '../renewals/GamePaymentsCard.tsx';
import { InvoicesGrid } from './InvoicesGrid.tsx';
import { SubscriptionCard } from '../subscriptions/SubscriptionCard.tsx';
import { SecurityCard } from '../../dashboard/account/SecurityCard.tsx';
import { TransactionsGrid } from './TransactionsGrid.tsx';
import { DataExportCard } from '../../dashboard/account/DataExportCard.tsx';
import { DeleteAccountCard } from '../../dashboard/account/DeleteAccountCard.tsx';

/** /dashboard/account: balance, subscription, the way to the account's security, renewals to pay, the credit ledger, the invoices, a copy of the player's data and deleting the account. */
export function AccountPage() {
  const { t } = useTranslation('credits');
  const to = useLocalePath();
  const user = useCurrentUser();
  return (
    <>
      <title>{`${t('account.title')} · BlockHost`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('account.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 2fr)' }, alignItems: 'start', mb: 3 }}>
        <Card>
          <CardContent>
            <Typography variant="overline" color="text.secondary" component="h2">
              {t('account.balance')}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 1 }}>
              <Box sx={{ color: 'primary.main', fontSize: '1.2rem' }} data-testid="account-balance">
                <CreditButton />
              </Box>
              <Button variant="contained" component={RouterLink} to={`${to('/credits')}?back=${encodeURIComponent(to('/dashboard/account'))}`}>
                {t('account.buy')}
              </Button>
            </Box>
            {user.status === 'done' && (
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t('credits', { count: user.data.balance })}
              </Typography>
            )}
          </CardContent>
        </Card>
        <SubscriptionCard />
      </Box>
      <Box sx={{ mb: 3 }}>
        <SecurityCard />
      </Box>
      <Box sx={{ display: 'grid', gap: 3 }}>
        <GamePaymentsCard />
        <KeptBackupsCard />
        <TransactionsGrid />
        <InvoicesGrid />
        <DataExportCard />
        <DeleteAccountCard />
      </Box>
    </>
  );
}
