import { Box, Button, Container, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TournamentList, TournamentSummary } from '../../../contract/tournaments.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { apiQuery } from '../../app/queries.ts';
import { formatDate, formatNumber, useLocalized } from '../../ui/format.ts';

/**
 * A live or upcoming tournament as a link to its page. The home page's own, lighter than /ranked's
 * card: plain boxes rather than MUI's Card and Chip, and its few strings in the site's namespace,
 * so the home page loads neither the ranked strings nor those components.
 */
function TeaserCard({ tournament: x }: { tournament: TournamentSummary }) {
  const { t, i18n } = useTranslation('site');
  const localized = useLocalized();
  const to = useLocalePath();
  const live = x.status === 'LIVE';
  return (
    <Box
      component={RouterLink}
      to={to(`/ranked/${x.slug}`)}
      data-testid="teaser-tournament"
      sx={{ display: 'block', p: 2, border: 1, borderColor: 'divider', borderRadius: 1, color: 'inherit', textDecoration: 'none', '&:hover, &:focus-visible': { borderColor: 'secondary.main' } }}
    >
      <Typography component="span" variant="caption" sx={{ fontWeight: 700, textTransform: 'uppercase', color: live ? 'secondary.main' : 'text.secondary' }}>
        {t(live ? 'home.ranked.live' : 'home.ranked.upcoming')}
      </Typography>
      <Typography variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 700, overflowWrap: 'anywhere', mb: 1 }}>
        {localized(x.name)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {formatDate(x.startsAt, i18n.language)} · {t(`home.ranked.formats.${x.format}`)} · {localized(x.modeName)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('home.ranked.entrants', { count: x.entrants, max: x.maxEntrants })}
        {x.prizeFirst > 0 && ` · ${t('home.ranked.prize', { credits: formatNumber(x.prizeFirst, i18n.language) })}`}
      </Typography>
    </Box>
  );
}

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
        {docs.map((d) => (
          <TeaserCard key={d.id} tournament={d} />
        ))}
      </Box>
    </Container>
  );
}
