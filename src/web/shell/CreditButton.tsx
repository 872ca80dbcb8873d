import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../app/currentUser.tsx';
import { useLocalePath } from '../app/locale.tsx';
import { LeafCoin } from '../ui/LeafCoin.tsx';

/** The balance in leaf-coins, linking to /credits. */
export function CreditButton() {
  const { t, i18n } = useTranslation();
  const to = useLocalePath();
  const user = useCurrentUser();
  const balance = user.status === 'done' ? user.data.balance : null;
  return (
    <Button
      component={RouterLink}
      to={to('/credits')}
      color="inherit"
      startIcon={<LeafCoin />}
      aria-label={balance === null ? t('credits.label') : t('credits.balance', { count: balance })}
      data-testid="credit-button"
      sx={{ borderRadius: 5, px: 1.5, border: 1, borderColor: 'currentColor', minWidth: 0, flexShrink: 0, whiteSpace: 'nowrap' }}
    >
      {/* Grouped as the page's language writes it, like every credit amount in its strings ({{count, number}}). */}
      {balance === null ? '…' : balance.toLocaleString(i18n.language)}
    </Button>
  );
}
