import { Box, Card, CardContent, CardHeader, Chip, Divider, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useQuery } from '@tanstack/react-query';
import { useSubscription } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { PlayerHistory, RankedMatch } from '../../../contract/competitions.ts';
import { apiQuery, hasFailed } from '../../app/queries.ts';
import { formatDate, formatNumber } from '../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../ui/states.tsx';

/** Matches listed under the chart. */
const RECENT = 10;

type Outcome = 'won' | 'lost' | 'drew';

/** A finished match as its player `userId` lived it: the opponent, the result, both kills and the rating change. */
function MatchLine({ match, userId }: { match: RankedMatch; userId: string }) {
  const { t, i18n } = useTranslation('ranked');
  const [first, second] = match.players;
  const [mine, theirs] = first?.id === userId ? [first, second] : [second, first];
  const outcome: Outcome = match.winnerId === null ? 'drew' : match.winnerId === userId ? 'won' : 'lost';
  const change = mine?.ratingBefore != null && mine.ratingAfter != null ? mine.ratingAfter - mine.ratingBefore : null;
  return (
    <Box data-testid="ranked-history-match" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', py: 1 }}>
      <Chip size="small" color={outcome === 'won' ? 'success' : outcome === 'lost' ? 'error' : 'default'} label={t(`history.outcome.${outcome}`)} sx={{ minWidth: 84 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{t('history.against', { opponent: theirs?.mcName ?? theirs?.name ?? '' })}</Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDate(match.endedAt, i18n.language)}
        </Typography>
      </Box>
      {/* The score above the rating change, kept together at the line's end, even on a phone. */}
      <Box sx={{ textAlign: 'right', minWidth: 48 }}>
        <Typography sx={{ whiteSpace: 'nowrap' }} aria-label={t('history.killsLabel', { mine: mine?.kills ?? 0, theirs: theirs?.kills ?? 0 })}>
          {t('history.kills', { mine: mine?.kills ?? 0, theirs: theirs?.kills ?? 0 })}
        </Typography>
        {change !== null && (
          <Typography data-testid="ranked-history-change" sx={{ fontWeight: 700, color: change > 0 ? 'success.main' : change < 0 ? 'error.main' : 'text.secondary' }}>
            {change > 0 ? `+${change}` : change === 0 ? '±0' : `−${-change}`}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/** One figure of the totals: its number big, its name under it. */
function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

/**
 * The player's season in a mode (GET /v1/ranked/players/{id}/history): their rating after each
 * match as a chart, "provisional" while its deviation is high, the totals (record, kills made and
 * taken) and the last matches with the rating each moved. Read again when a match of theirs ends
 * (the `ranked` resource on the event stream). Loaded apart from the page: MUI X Charts is heavy.
 */
export default function RankedHistoryCard({ userId, modeId, season }: { userId: string; modeId: string; season: string }) {
  const { t, i18n } = useTranslation('ranked');
  const theme = useTheme();
  const errorMessage = useErrorMessage();
  const history = useQuery(apiQuery<PlayerHistory>(`/v1/ranked/players/${userId}/history?modeId=${modeId}&season=${season}&size=${RECENT}`));
  useSubscription({ channel: 'resources/ranked', types: ['*'], onLiveEvent: () => void history.refetch() });
  const lang = i18n.language;
  const number = (n: number) => formatNumber(n, lang);

  let body;
  if (hasFailed(history)) body = <LoadError message={`${t('history.loadError')} ${errorMessage(history.error)}`} onRetry={() => void history.refetch()} />;
  else if (!history.data) body = <Skeleton variant="rounded" height={260} data-testid="ranked-history-loading" />;
  else if (history.data.points.length === 0 && history.data.matches.totalElements === 0)
    body = (
      <EmptyState title={t('history.empty')}>
        <Typography color="text.secondary">{t('history.emptyHint')}</Typography>
      </EmptyState>
    );
  else {
    const { points, matches, totals, ratings } = history.data;
    const rating = ratings.find((r) => r.modeId === modeId);
    // The season's start, then the rating after each match: x is the match's number in the season.
    const values = points.length > 0 ? [points[0]!.ratingBefore, ...points.map((p) => p.ratingAfter)] : [];
    const when = ['', ...points.map((p) => formatDate(p.at, lang))];
    const ratio = totals.deaths === 0 ? totals.kills : totals.kills / totals.deaths;
    body = (
      <Stack spacing={2}>
        {rating && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="h4" component="p" data-testid="ranked-history-rating">
              {t('ratings.line', { rating: number(rating.rating), rd: rating.rd })}
            </Typography>
            {rating.provisional && <Chip size="small" variant="outlined" label={t('ratings.provisional')} title={t('ratings.provisionalHint')} data-testid="ranked-history-provisional" />}
          </Box>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, max-content)' }, gap: { xs: 2, sm: 4 } }} data-testid="ranked-history-totals">
          <Figure label={t('history.totals.matches', { count: totals.matches })} value={number(totals.matches)} />
          <Figure label={t('history.totals.record')} value={`${totals.wins} / ${totals.losses} / ${totals.draws}`} />
          <Figure label={t('history.totals.kills', { count: totals.kills })} value={number(totals.kills)} testId="ranked-history-kills" />
          <Figure label={t('history.totals.ratio')} value={ratio.toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR', { maximumFractionDigits: 2 })} />
        </Box>
        {values.length > 1 && (
          <Box role="figure" aria-label={t('history.chart')} data-testid="ranked-history-chart" data-points={points.length} sx={{ minWidth: 0 }}>
            <Typography variant="subtitle2">{t('history.chart')}</Typography>
            <LineChart
              height={220}
              margin={{ left: 8, right: 16 }}
              xAxis={[
                {
                  data: values.map((_, i) => i),
                  scaleType: 'point',
                  valueFormatter: (i: number, context: { location: string }) =>
                    context.location === 'tick' ? String(i) : i === 0 ? t('history.start') : `${t('history.match', { n: i })} · ${when[i]}`,
                },
              ]}
              yAxis={[{ width: 48, valueFormatter: (v: number) => number(v) }]}
              series={[
                { data: values, label: t('history.rating'), color: theme.palette.primary.main, showMark: values.length <= 30, valueFormatter: (v: number | null) => (v === null ? '' : number(v)) },
              ]}
              hideLegend
              grid={{ horizontal: true }}
            />
          </Box>
        )}
        <Box>
          <Typography variant="subtitle2">{t('history.recent')}</Typography>
          {matches.data.length === 0 ? (
            <Typography color="text.secondary">{t('history.noMatches')}</Typography>
          ) : (
            <Stack divider={<Divider flexItem />} data-testid="ranked-history-matches">
              {matches.data.map((m) => (
                <MatchLine key={m.id} match={m} userId={userId} />
              ))}
            </Stack>
          )}
        </Box>
      </Stack>
    );
  }
  return (
    <Card data-testid="ranked-history">
      <CardHeader title={t('history.title')} subheader={t('history.subtitle', { season })} titleTypographyProps={{ variant: 'h4', component: 'h3' }} />
      <CardContent sx={{ pt: 0 }}>{body}</CardContent>
    </Card>
  );
}
