import { Box, Button, Card, CardActionArea, CardContent, Chip, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useList } from '@refinedev/core';
import type { Game } from '../../../contract/games.ts';
import { useLocalePath } from '../../app/locale.tsx';
import type { ApiError } from '../../app/api.ts';
import { formatDate, useFormatRam } from '../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../ui/states.tsx';
import { StatusChip } from './StatusChip.tsx';

/** The player's servers on the dashboard home, each linking to its control panel. */
export function GamesList() {
  const { t, i18n } = useTranslation('games');
  const to = useLocalePath();
  const ram = useFormatRam();
  const errorMessage = useErrorMessage();
  // Read again when the server says a game changed: a server started or stopped elsewhere shows its new status here too.
  const { query, result } = useList<Game, ApiError>({ resource: 'games', pagination: { pageSize: 100 } });
  return (
    <Box component="section" aria-labelledby="my-games-title" sx={{ mt: 4 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography id="my-games-title" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' } }}>
          {t('list.title')}
        </Typography>
        <Button component={RouterLink} to={to('/dashboard/store')} variant="outlined">
          {t('list.new')}
        </Button>
      </Box>
      {query.isPending && <Skeleton variant="rounded" height={88} />}
      {query.isError && <LoadError message={`${t('list.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />}
      {query.isSuccess && result.data.length === 0 && (
        <EmptyState title={t('list.empty')}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('list.emptyText')}
          </Typography>
          <Button component={RouterLink} to={to('/dashboard/store')} variant="contained">
            {t('list.toStore')}
          </Button>
        </EmptyState>
      )}
      {query.isSuccess && result.data.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
          {result.data.map((g) => (
            <Card key={g.id} data-testid="game-item">
              <CardActionArea component={RouterLink} to={to(`/dashboard/game/${g.id}`)} sx={{ height: '100%' }}>
                <CardContent>
                  <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 1, mb: 1 }}>
                    <Typography variant="h4" component="h3" sx={{ overflowWrap: 'anywhere' }}>
                      {g.name}
                    </Typography>
                    <StatusChip status={g.status} />
                  </Box>
                  <Typography variant="body2" color="text.secondary">
                    {t('game.summary', { version: g.version, ram: ram(g.ramMb), players: t('package.playerCount', { count: g.settings.maxPlayers ?? g.maxPlayers }) })}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" data-testid="game-period-end">
                    {t('renewal.periodEnd', { date: formatDate(g.periodEnd, i18n.language) })}
                  </Typography>
                  {g.renewal?.status === 'PENDING' && g.status !== 'EXPIRED' && <Chip size="small" color="warning" label={t('renewal.listPending')} sx={{ mt: 1 }} data-testid="game-renewal" />}
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
