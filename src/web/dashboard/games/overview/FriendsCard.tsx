import { Card, CardContent, CardHeader, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PlayerListType } from '../../../../contract/games.ts';
import { AnnounceSection } from './AnnounceSection.tsx';
import { GroupToListSection } from './GroupToListSection.tsx';

/** Friend groups on a player list, and telling friends the server is open. */
export function FriendsCard({ gameId, running, onListChanged }: { gameId: string; running: boolean; onListChanged: (type: PlayerListType) => void }) {
  const { t } = useTranslation('games');
  return (
    <Card data-testid="friends-card">
      <CardHeader title={t('friends.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={3}>
          <GroupToListSection gameId={gameId} onListChanged={onListChanged} />
          <AnnounceSection gameId={gameId} running={running} />
        </Stack>
      </CardContent>
    </Card>
  );
}
