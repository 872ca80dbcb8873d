import { useState } from 'react';
import { Box, Button, Chip, Paper, Skeleton, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Leaderboard, LeaderboardEntry, RankedModeList } from '../../../contract/competitions.ts';
import { apiQuery, hasFailed } from '../../app/queries.ts';
import { formatNumber, useLocalized } from '../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../ui/states.tsx';

/** Lines of a leaderboard page. */
const PAGE_SIZE = 20;

/** One player's line; the caller's own is marked. */
function Line({ entry, mine }: { entry: LeaderboardEntry; mine: boolean }) {
  const { t, i18n } = useTranslation('ranked');
  return (
    <TableRow selected={mine} data-testid={mine ? 'leaderboard-mine' : 'leaderboard-row'}>
      <TableCell sx={{ fontWeight: 700, width: 64 }}>{entry.rank}</TableCell>
      <TableCell sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {entry.player.mcName ?? entry.player.name}
        {mine && <Chip size="small" variant="outlined" label={t('leaderboard.you')} sx={{ ml: 1 }} />}
      </TableCell>
      <TableCell align="right">
        {formatNumber(entry.rating, i18n.language)}
        {entry.provisional && <Chip size="small" variant="outlined" label={t('leaderboard.provisional')} sx={{ ml: 1, display: { xs: 'none', sm: 'inline-flex' } }} />}
      </TableCell>
      <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' }, whiteSpace: 'nowrap' }}>
        {entry.wins} / {entry.losses} / {entry.draws}
      </TableCell>
    </TableRow>
  );
}

/** A mode's board of the current season, in pages of PAGE_SIZE, with the caller's own line under it when they are not on the page. */
function Board({ modeId }: { modeId: string }) {
  const { t, i18n } = useTranslation('ranked');
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(0);
  const board = useQuery({ ...apiQuery<Leaderboard>(`/v1/ranked/modes/${modeId}/leaderboard?page=${page}&size=${PAGE_SIZE}`), placeholderData: keepPreviousData });
  if (hasFailed(board)) return <LoadError message={`${t('leaderboard.loadError')} ${errorMessage(board.error)}`} onRetry={() => void board.refetch()} />;
  if (!board.data) return <Skeleton variant="rounded" height={240} data-testid="leaderboard-loading" />;
  const { data, totalElements, mine, season } = board.data;
  const mineShown = mine !== null && data.some((e) => e.player.id === mine.player.id);
  const from = page * PAGE_SIZE + 1;
  return (
    <Box>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('leaderboard.intro', { season: season.key })}
      </Typography>
      {mine && (
        <Typography sx={{ mb: 1, fontWeight: 700 }} data-testid="leaderboard-own-rank">
          {t('leaderboard.yourRank', { rank: mine.rank })}
        </Typography>
      )}
      {totalElements === 0 ? (
        <EmptyState title={t('leaderboard.empty')}>
          <Typography color="text.secondary">{t('leaderboard.emptyHint')}</Typography>
        </EmptyState>
      ) : (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={t('leaderboard.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('leaderboard.rank')}</TableCell>
                  <TableCell>{t('leaderboard.player')}</TableCell>
                  <TableCell align="right">{t('leaderboard.rating')}</TableCell>
                  <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {t('leaderboard.record')}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.map((entry) => (
                  <Line key={entry.player.id} entry={entry} mine={entry.player.id === mine?.player.id} />
                ))}
                {mine && !mineShown && <Line entry={mine} mine />}
              </TableBody>
            </Table>
          </TableContainer>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('leaderboard.page', { from, to: Math.min(from + PAGE_SIZE - 1, totalElements), total: formatNumber(totalElements, i18n.language) })}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <Button size="small" disabled={page === 0} onClick={() => setPage(page - 1)}>
                {t('leaderboard.previous')}
              </Button>
              <Button size="small" disabled={from + PAGE_SIZE > totalElements} onClick={() => setPage(page + 1)}>
                {t('leaderboard.next')}
              </Button>
            </Box>
          </Box>
        </>
      )}
    </Box>
  );
}

/**
 * The ladders' leaderboards (the current season's top 100 of each mode), as visitors and players
 * read them on /ranked and /dashboard/ranked: public reads, with the caller's own rank when signed in.
 */
export function Leaderboards() {
  const { t } = useTranslation('ranked');
  const localized = useLocalized();
  const errorMessage = useErrorMessage();
  const modes = useQuery(apiQuery<RankedModeList>('/v1/ranked/modes'));
  const [chosen, setChosen] = useState<string | null>(null);
  const list = modes.data?.data ?? [];
  const modeId = chosen ?? list[0]?.id ?? null;
  return (
    <Box component="section" aria-labelledby="leaderboards-title" sx={{ my: 4 }}>
      <Typography id="leaderboards-title" variant="h2" sx={{ fontSize: { xs: '1.6rem', md: '2rem' }, mb: 2 }}>
        {t('leaderboard.title')}
      </Typography>
      {hasFailed(modes) ? (
        <LoadError message={`${t('leaderboard.loadError')} ${errorMessage(modes.error)}`} onRetry={() => void modes.refetch()} />
      ) : !modes.data ? (
        <Skeleton variant="rounded" height={240} />
      ) : modeId === null ? (
        <EmptyState title={t('leaderboard.noModes')} />
      ) : (
        <>
          {list.length > 1 && (
            <Tabs value={modeId} onChange={(_, id: string) => setChosen(id)} variant="scrollable" aria-label={t('leaderboard.modeTabs')} sx={{ mb: 2 }}>
              {list.map((m) => (
                <Tab key={m.id} value={m.id} label={localized(m.name)} />
              ))}
            </Tabs>
          )}
          {list.length === 1 && (
            <Typography variant="h3" sx={{ fontSize: { xs: '1.2rem', md: '1.4rem' }, mb: 1 }}>
              {localized(list[0]!.name)}
            </Typography>
          )}
          <Board key={modeId} modeId={modeId} />
        </>
      )}
    </Box>
  );
}
