import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { useLocalePath } from '../app/locale.tsx';

export function HomePage() {
  const { t } = useTranslation('site');
  const session = useSession();
  const to = useLocalePath();
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 6, md: 12 } }}>
      <Typography variant="h1" sx={{ maxWidth: 760, mb: 2 }}>
        {t('home.title')}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary" sx={{ maxWidth: 680, mb: 4, fontWeight: 400 }}>
        {t('home.subtitle')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {session.status === 'authenticated' ? (
          <Button component={RouterLink} to={to('/dashboard')} variant="contained" size="large">
            {t('home.toDashboard')}
          </Button>
        ) : (
          <Button variant="contained" size="large" onClick={() => void session.signIn()}>
            {t('home.cta')}
          </Button>
        )}
      </Box>
    </Container>
  );
}
