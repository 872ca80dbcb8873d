import { Alert, Box, Button, Typography } from '@mui/material';
import { CheckCircle as CheckCircleIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { Payment } from '../../../contract/payments.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { safeBackPath } from '../checkout/money.ts';

/** After a payment settled: what arrived and the balance the header now shows too. */
export function CreditsReceived({ payment, onAgain }: { payment: Pick<Payment, 'credits' | 'bonusCredits'>; onAgain?: () => void }) {
  const { t } = useTranslation('credits');
  const to = useLocalePath();
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const back = safeBackPath(params.get('back'));
  return (
    <Alert severity="success" icon={<CheckCircleIcon fontSize="inherit" />} data-testid="credits-received" sx={{ '& .MuiAlert-message': { width: '100%' } }}>
      <Typography variant="h2" sx={{ fontSize: '1.4rem', mb: 1 }}>
        {t('done.title')}
      </Typography>
      <Typography>{t('done.text', { count: payment.credits + payment.bonusCredits })}</Typography>
      {user.status === 'done' && (
        <Typography sx={{ fontWeight: 700, mt: 0.5 }} data-testid="new-balance">
          {t('done.balance', { balance: t('credits', { count: user.data.balance }) })}
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        {back && (
          <Button variant="contained" component={RouterLink} to={back}>
            {t('done.back')}
          </Button>
        )}
        <Button variant={back ? 'outlined' : 'contained'} component={RouterLink} to={to('/dashboard/account')}>
          {t('done.account')}
        </Button>
        {onAgain && <Button onClick={onAgain}>{t('done.again')}</Button>}
      </Box>
    </Alert>
  );
}
