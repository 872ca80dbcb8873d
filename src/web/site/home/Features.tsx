import { Box, Container, Paper, Typography } from '@mui/material';
import { Bolt as BoltIcon } from '@mui/icons-material';
import { Groups as GroupsIcon } from '@mui/icons-material';
import { Shield as ShieldIcon } from '@mui/icons-material';
import { EmojiEvents as EmojiEventsIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';

const features = [
  ['fast', <BoltIcon />],
  ['friends', <GroupsIcon />],
  ['control', <ShieldIcon />],
  ['compete', <EmojiEventsIcon />],
] as const;

/** What the platform does. */
export function Features() {
  const { t } = useTranslation('site');
  return (
    <Container component="section" maxWidth="lg" aria-labelledby="features-title" sx={{ py: { xs: 6, md: 10 } }}>
      <Typography id="features-title" variant="h2" sx={{ mb: 4, fontSize: { xs: '1.7rem', md: '2.2rem' } }}>
        {t('home.features.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
        {features.map(([key, icon]) => (
          <Paper key={key} variant="outlined" sx={{ p: 3 }}>
            <Box sx={{ color: 'primary.main', mb: 1, '& svg': { fontSize: 36 } }}>{icon}</Box>
            <Typography variant="h3" sx={{ fontSize: '1.2rem', mb: 1 }}>
              {t(`home.features.${key}.title`)}
            </Typography>
            <Typography color="text.secondary">{t(`home.features.${key}.body`)}</Typography>
          </Paper>
        ))}
      </Box>
    </Container>
  );
}
