import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Lock as LockIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../../app/locale.tsx';
import { useExternalAccount } from './useExternalAccount.ts';

/** The account page's way to its security: our own page, or the issuer's account console. */
export function SecurityCard() {
  const { t } = useTranslation('account');
  const to = useLocalePath();
  const external = useExternalAccount();
  const link = external ? { href: external } : { component: RouterLink, to: to('/dashboard/account/security') };
  return (
    <Card component="section" aria-labelledby="security-card-title">
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
          <LockIcon color="primary" />
          <Box>
            <Typography id="security-card-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
              {t('card.title')}
            </Typography>
            <Typography color="text.secondary">{t('card.text')}</Typography>
          </Box>
        </Box>
        <Button variant="outlined" {...link}>
          {t(external ? 'external.open' : 'card.manage')}
        </Button>
      </CardContent>
    </Card>
  );
}
