import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../app/auth.tsx';
import { useLocalePath } from '../../app/locale.tsx';

const hero = (d: 1 | 2) => `/images/generated/hero-${d}x.webp`;

/** The first screen: what BlockHost is, over a block landscape the transparent header lies on. */
export function Hero() {
  const { t } = useTranslation('site');
  const session = useSession();
  const to = useLocalePath();
  return (
    <Box
      component="section"
      aria-labelledby="home-title"
      sx={{
        color: '#fff',
        bgcolor: '#1b1035',
        backgroundImage: `linear-gradient(90deg, rgba(15,10,30,.88) 0%, rgba(15,10,30,.55) 60%, rgba(15,10,30,.2) 100%), image-set(url(${hero(1)}) 1x, url(${hero(2)}) 2x)`,
        backgroundSize: 'cover',
        backgroundPosition: 'center bottom',
        pt: { xs: 14, md: 20 },
        pb: { xs: 10, md: 16 },
      }}
    >
      <Container maxWidth="lg">
        <Typography variant="overline" sx={{ color: '#b9f6ca', fontWeight: 700, letterSpacing: '.12em' }}>
          {t('home.kicker')}
        </Typography>
        <Typography id="home-title" variant="h1" sx={{ maxWidth: 760, mb: 2, fontSize: { xs: '2.2rem', sm: '2.8rem', md: '3.5rem', xl: '4rem' } }}>
          {t('home.title')}
        </Typography>
        <Typography variant="h6" component="p" sx={{ maxWidth: 640, mb: 4, fontWeight: 400, color: 'rgba(255,255,255,.85)' }}>
          {t('home.subtitle')}
        </Typography>
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2 }}>
          {session.status === 'authenticated' ? (
            <Button component={RouterLink} to={to('/dashboard')} variant="contained" size="large">
              {t('home.toDashboard')}
            </Button>
          ) : (
            <Button variant="contained" size="large" onClick={() => void session.signIn()}>
              {t('home.cta')}
            </Button>
          )}
          <Button component={RouterLink} to={to('/store')} variant="outlined" size="large" sx={{ color: '#fff', borderColor: 'rgba(255,255,255,.6)', '&:hover': { borderColor: '#fff' } }}>
            {t('home.browse')}
          </Button>
        </Box>
      </Container>
    </Box>
  );
}
