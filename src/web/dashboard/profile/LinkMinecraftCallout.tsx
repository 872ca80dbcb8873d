import { Alert, AlertTitle, Box, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../../app/locale.tsx';

/**
 * Asks a player without a linked Minecraft account to link one, saying why: friends find players by
 * their Minecraft name and whitelists are made of Minecraft accounts, so without it they miss both.
 */
export function LinkMinecraftCallout() {
  const { t } = useTranslation('social');
  const to = useLocalePath();
  return (
    <Alert severity="info" data-testid="link-minecraft-cta" sx={{ mb: 3, '& .MuiAlert-message': { minWidth: 0 } }}>
      <AlertTitle>{t('profile.cta.title')}</AlertTitle>
      {t('profile.cta.text')}
      {/* Under the text rather than beside it: a phone's width leaves the text no room beside a button. */}
      <Box sx={{ mt: 1.5 }}>
        <Button color="inherit" variant="outlined" size="small" component={RouterLink} to={to('/dashboard/profil')}>
          {t('profile.cta.action')}
        </Button>
      </Box>
    </Alert>
  );
}
