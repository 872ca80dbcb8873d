import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../app/auth.tsx';
import { useLocalePath } from '../../app/locale.tsx';

/** The closing call to create a server. */
export function CallToAction() {
  const { t } = useTranslation('site');
  const session = useSession();
  const to = useLocalePath();
  return (
    <Box component="section" aria-labelledby="cta-title" sx={{ bgcolor: '#1b5e20', color: '#fff', py: { xs: 6, md: 8 }, textAlign: 'center' }}>
      <Container maxWidth="md">
        <Typography id="cta-title" variant="h2" sx={{ mb: 2, fontSize: { xs: '1.7rem', md: '2.2rem' } }}>
          {t('home.final.title')}
        </Typography>
        <Typography sx={{ mb: 3, color: 'rgba(255,255,255,.85)' }}>{t('home.final.body')}</Typography>
        {session.status === 'authenticated' ? (
          <Button component={RouterLink} to={to('/dashboard/store')} variant="contained" color="secondary" size="large">
            {t('home.final.button')}
          </Button>
        ) : (
          <Button variant="contained" color="secondary" size="large" onClick={() => void session.signIn('/dashboard/store')}>
            {t('home.final.button')}
          </Button>
        )}
      </Container>
    </Box>
  );
}
