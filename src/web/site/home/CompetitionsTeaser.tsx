import { Suspense } from 'react';
import { Box, Button, Container, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TournamentList } from '../../../contract/tournaments.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { apiQuery } from '../../app/queries.ts';
import { TournamentCard } from '../ranked/TournamentLists.tsx';

/** The next tournaments (those being played first), each leading to its page. */
export function CompetitionsTeaser() {
  const { t } = useTranslation('site');
  const to = useLocalePath();
  const live = useQuery(apiQuery<TournamentList>('/v1/tournaments?when=live&size=3'));
  const upcoming = useQuery(apiQuery<TournamentList>('/v1/tournaments?when=upcoming&size=3'));
  const docs = [...(live.data?.data ?? []), ...(upcoming.data?.data ?? [])].slice(0, 3);
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
        {/* The cards' strings (the ranked namespace) load with them, without holding the home page back. */}
        <Suspense fallback={null}>
          {docs.map((d) => (
            <TournamentCard key={d.id} tournament={d} />
          ))}
        </Suspense>
      </Box>
    </Container>
  );
}
