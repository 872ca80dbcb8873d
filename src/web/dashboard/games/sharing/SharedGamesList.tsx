import { Box, Card, CardActionArea, CardContent, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { GameStatus } from '../../../../contract/values.ts';
import { useLocalePath } from '../../../app/locale.tsx';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { StatusChip } from '../StatusChip.tsx';
import { useSharedGames } from './useSharedGames.ts';

/** The dashboard's "Servers shared with me": the games friends shared, each linking to its page; nothing while there are none. */
export function SharedGamesList() {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const { games, error, refetch } = useSharedGames();
  if (error && !games) return <LoadError message={`${t('sharing.shared.loadError')} ${errorMessage(error)}`} onRetry={refetch} />;
  if (!games || games.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="shared-games-title" sx={{ mt: 4 }} data-testid="shared-games">
      <Typography id="shared-games-title" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 2 }}>
        {t('sharing.shared.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {games.map((g) => (
          <Card key={g.id} data-testid="shared-game-item">
            <CardActionArea component={RouterLink} to={to(`/dashboard/game/${encodeURIComponent(g.id)}`)} sx={{ height: '100%' }}>
              <CardContent>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 1, mb: 1 }}>
                  <Typography variant="h4" component="h3" sx={{ overflowWrap: 'anywhere' }}>
                    {g.name}
                  </Typography>
                  <StatusChip status={g.status as GameStatus} />
                </Box>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {t('sharing.shared.owner', { owner: g.owner.name, version: g.version })}
                </Typography>
                <Chip size="small" variant="outlined" color="primary" label={t(`sharing.roles.${g.role}.name`)} sx={{ mt: 1 }} data-testid="shared-game-role" />
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
