import { useState } from 'react';
import { Box } from '@mui/material';
import { playerListLevels, type Game, type GameStatusView, type PlayerListType } from '../../../../contract/games.ts';
import { type GameStatus } from '../../../../contract/values.ts';
import { RenewalCard } from '../../../money/renewals/RenewalCard.tsx';
import { may } from '../sharing/access.ts';
import type { useGameRead } from '../useGameCall.ts';
import { ConnectedCard } from './ConnectedCard.tsx';
import { ControlsCard } from './ControlsCard.tsx';
import { FriendsCard } from './FriendsCard.tsx';
import { PlayerListsCard } from './PlayerListsCard.tsx';
import { TransactionsCard } from './TransactionsCard.tsx';
import { WhitelistCard } from './WhitelistCard.tsx';

/**
 * The control panel: renewal, power, players, lists and the game's transactions; a friend the game
 * is shared with sees what their role allows (billing stays the owner's).
 */
export function Overview({ game, status, running, live, reload }: { game: Game; status: GameStatus; running: boolean; live: ReturnType<typeof useGameRead<GameStatusView>>; reload: () => void }) {
  // A friend group changed a list: the lists card is read again, on that list.
  const [lists, setLists] = useState<{ version: number; type: PlayerListType }>({ version: 0, type: 'WHITELIST' });
  const owner = may(game, 'OWNER');
  const moderator = may(game, 'MODERATOR');
  return (
    <>
      {owner && <RenewalCard game={game} onChanged={reload} />}
      <ControlsCard game={game} status={status} live={live.data} liveFailed={live.error !== null} onActed={live.refetch} canPower={may(game, 'COADMIN')} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <ConnectedCard gameId={game.id} running={running} canKick={moderator} />
        <WhitelistCard gameId={game.id} initial={game.whitelistEnabled} canChange={moderator} />
      </Box>
      {moderator && <FriendsCard gameId={game.id} running={running} onListChanged={(type) => setLists((l) => ({ version: l.version + 1, type }))} />}
      <PlayerListsCard key={lists.version} gameId={game.id} initialType={lists.type} mayChange={(type) => may(game, playerListLevels[type])} />
      {owner && <TransactionsCard gameId={game.id} />}
    </>
  );
}
