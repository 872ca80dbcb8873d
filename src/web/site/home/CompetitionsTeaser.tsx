import { Box, Button, Container, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ContentDoc } from '../../../contract/content.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { apiQuery } from '../../app/queries.ts';
import { ContentCard } from '../../content/ContentCard.tsx';

/** The next competitions, from the content pages under ranked/. */
export function CompetitionsTeaser() {
  const { t, i18n } = useTranslation('site');
  const to = useLocalePath();
  const list = useQuery(apiQuery<ContentDoc[]>(`/_content/list/${i18n.language}/ranked`));
  const docs = list.isSuccess ? list.data.filter((d) => d.path !== '/ranked').slice(0, 3) : [];
  return (
    <Container component="section" maxWidth="lg" aria-labelledby="ranked-title" sx={{ py: { xs: 6, md: 10 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, mb: 3 }}>
        <Typography id="ranked-title" variant="h2" sx={{ fontSize: { xs: '1.7rem', md: '2.2rem' } }}>
          {t('home.ranked.title')}
        </Typography>
        <Button component={RouterLink} to={to('/ranked')} color="secondary">
          {t('home.ranked.all')}
        </Button>
      </Box>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 680 }}>
        {t('home.ranked.body')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, minHeight: 120 }}>
        {docs.map((d) => (
          <ContentCard key={d.path} doc={d} />
        ))}
      </Box>
    </Container>
  );
}
