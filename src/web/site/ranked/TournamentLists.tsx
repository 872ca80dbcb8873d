import { Box, Card, CardActionArea, CardContent, Chip, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { TournamentList, TournamentSummary } from '../../../contract/tournaments.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { apiQuery, hasFailed } from '../../app/queries.ts';
import { formatDate, formatNumber, useLocalized } from '../../ui/format.ts';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';

/** One tournament as a card leading to its page: when, format, entrants, prize, and its winner once over. */
function TournamentCard({ tournament: x }: { tournament: TournamentSummary }) {
  const { t, i18n } = useTranslation('ranked');
  const localized = useLocalized();
  const to = useLocalePath();
  return (
    <Card variant="outlined" data-testid="tournament-card">
      <CardActionArea component={RouterLink} to={to(`/ranked/${x.slug}`)} sx={{ height: '100%' }}>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
            <Typography variant="h3" sx={{ fontSize: '1.15rem', fontWeight: 700, overflowWrap: 'anywhere' }}>
              {localized(x.name)}
            </Typography>
            <Chip size="small" label={t(`tournaments.status.${x.status}`)} color={x.status === 'LIVE' ? 'secondary' : 'default'} variant={x.status === 'LIVE' ? 'filled' : 'outlined'} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {formatDate(x.startsAt, i18n.language)} · {t(`tournaments.formats.${x.format}`)} · {localized(x.modeName)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('tournaments.entrantsCount', { count: x.entrants, max: x.maxEntrants })}
            {x.prizeFirst > 0 && ` · ${t('tournaments.prizeShort', { credits: formatNumber(x.prizeFirst, i18n.language) })}`}
          </Typography>
          {x.winner && (
            <Typography sx={{ mt: 1, fontWeight: 700 }} data-testid="tournament-winner">
              {t('tournaments.winner', { name: x.winner.mcName ?? x.winner.name })}
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** One of the lists: live, upcoming or past. A live list with nothing in it is left out. */
function Section({ when }: { when: 'live' | 'upcoming' | 'past' }) {
  const { t } = useTranslation('ranked');
  const errorMessage = useErrorMessage();
  const list = useQuery(apiQuery<TournamentList>(`/v1/tournaments?when=${when}&size=12`));
  if (when === 'live' && list.data?.totalElements === 0) return null;
  return (
    <Box component="section" aria-labelledby={`tournaments-${when}`} sx={{ mb: 3 }} data-testid={`tournaments-${when}`}>
      <Typography id={`tournaments-${when}`} variant="h3" sx={{ fontSize: { xs: '1.25rem', md: '1.45rem' }, mb: 1.5 }}>
        {t(`tournaments.lists.${when}`)}
      </Typography>
      {hasFailed(list) ? (
        <LoadError message={`${t('tournaments.loadError')} ${errorMessage(list.error)}`} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Skeleton variant="rounded" height={120} />
      ) : list.data.data.length === 0 ? (
        <Typography color="text.secondary">{t(`tournaments.none.${when}`)}</Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
          {list.data.data.map((x) => (
            <TournamentCard key={x.id} tournament={x} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/** The tournaments of /ranked (and /dashboard/ranked): live ones, then upcoming, then past. */
export function TournamentLists() {
  const { t } = useTranslation('ranked');
  return (
    <Box component="section" aria-labelledby="tournaments-title" sx={{ my: 4 }}>
      <Typography id="tournaments-title" variant="h2" sx={{ fontSize: { xs: '1.6rem', md: '2rem' }, mb: 2 }}>
        {t('tournaments.title')}
      </Typography>
      <Section when="live" />
      <Section when="upcoming" />
      <Section when="past" />
    </Box>
  );
}
