import { Box, Button, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Page } from '../../../contract/common.ts';
import type { Game } from '../../../contract/games.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { EmptyState, LoadError, StatusChip, useErrorMessage, useFormatRam } from '../../site/store/shared.tsx';

/** The player's servers on the dashboard home, each linking to its control panel. */
export function GamesList() {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const ram = useFormatRam();
  const errorMessage = useErrorMessage();
  const games = useFetch<Page<Game>>('/v1/game?size=100');
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
      {games.status === 'loading' && <Skeleton variant="rounded" height={88} />}
      {games.status === 'error' && <LoadError message={`${t('list.loadError')} ${errorMessage(games.error)}`} onRetry={games.reload} />}
      {games.status === 'done' && games.data.data.length === 0 && (
        <EmptyState title={t('list.empty')}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('list.emptyText')}
          </Typography>
          <Button component={RouterLink} to={to('/dashboard/store')} variant="contained">
            {t('list.toStore')}
          </Button>
        </EmptyState>
      )}
      {games.status === 'done' && games.data.data.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
          {games.data.data.map((g) => (
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
                    {t('game.summary', { version: g.version, ram: ram(g.ramMb), players: g.maxPlayers })}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
