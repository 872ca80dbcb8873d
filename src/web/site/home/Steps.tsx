import { Box, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** How it works, in three steps. */
export function Steps() {
  const { t } = useTranslation('site');
  return (
    <Box component="section" aria-labelledby="steps-title" sx={{ bgcolor: 'background.paper', borderBlock: 1, borderColor: 'divider', py: { xs: 6, md: 10 } }}>
      <Container maxWidth="lg">
        <Typography id="steps-title" variant="h2" sx={{ mb: 4, fontSize: { xs: '1.7rem', md: '2.2rem' } }}>
          {t('home.steps.title')}
        </Typography>
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {[1, 2, 3].map((n) => (
            <Box component="li" key={n} sx={{ display: 'flex', gap: 2 }}>
              <Box
                aria-hidden
                sx={{
                  flex: 'none',
                  width: 48,
                  height: 48,
                  borderRadius: 1,
                  bgcolor: 'secondary.main',
                  color: 'secondary.contrastText',
                  display: 'grid',
                  placeItems: 'center',
                  fontWeight: 800,
                  fontSize: '1.4rem',
                }}
              >
                {n}
              </Box>
              <Box>
                <Typography variant="h3" sx={{ fontSize: '1.2rem', mb: 0.5 }}>
                  {t(`home.steps.${n}.title`)}
                </Typography>
                <Typography color="text.secondary">{t(`home.steps.${n}.body`)}</Typography>
              </Box>
            </Box>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
