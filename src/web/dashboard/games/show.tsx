import { lazy, Suspense } from 'react';
import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import type { Game, GameStatusView } from '../../../contract/games.ts';
import type { GameStatus } from '../../../contract/values.ts';
import { gameTabs } from '../../../contract/routes.ts';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { ApiError } from '../../app/api.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { useFormatRam } from '../../ui/format.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { BackupsCard } from './backups/BackupsCard.tsx';
import { Overview } from './overview/Overview.tsx';
import { levelOf, may } from './sharing/access.ts';
import { SharedByChip } from './sharing/SharedByChip.tsx';
import { DeleteGameCard } from './settings/DeleteGameCard.tsx';
import { OfferCard } from './settings/OfferCard.tsx';
import { AddressNameCard } from './settings/AddressNameCard.tsx';
import { SettingsCard } from './settings/SettingsCard.tsx';
import { StatusChip } from './StatusChip.tsx';
import { LIVE_READ_MS, useGameRead } from './useGameCall.ts';

// MUI X Charts is heavy: loaded only when the Usage tab opens.
const UsageCard = lazy(() => import('./usage/UsageCard.tsx'));
// The console (its stream, colours and command line) loads when its tab opens.
const ConsoleCard = lazy(() => import('./console/ConsoleCard.tsx'));
// Who the game is shared with: the owner's tab, loaded when it opens.
const SharingCard = lazy(() => import('./sharing/SharingCard.tsx'));
// The scheduled tasks (owner and co-admins), loaded when their tab opens.
const SchedulesCard = lazy(() => import('./schedules/SchedulesCard.tsx'));
// Who did what on the server, loaded when its tab opens.
const ActivityCard = lazy(() => import('./activity/ActivityCard.tsx'));

const TABS = gameTabs;
type GameTab = (typeof TABS)[number];
/** The level each tab needs (src/contract/sharing.ts): a friend the game is shared with sees only theirs. */
const tabNeeds: Record<GameTab, GameAccessLevel> = {
  '': 'VIEWER',
  console: 'VIEWER',
  settings: 'COADMIN',
  usage: 'VIEWER',
  backups: 'COADMIN',
  schedules: 'COADMIN',
  activity: 'MODERATOR',
  sharing: 'OWNER',
};

/** /dashboard/game/:id[/tab]: the control panel of one of the player's servers, and its tabs. */
export function GameShow() {
  const { id = '', '*': rest = '' } = useParams();
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  // The game itself (reason of a crash, period, whitelist), read again by Refine when the server
  // says it changed; a refetch keeps it on screen.
  const { query } = useOne<Game, ApiError>({ resource: 'games', id });
  if (query.isPending) return <PageLoader />;
  // A 404 after the game was shown: it was deleted, or the caller's access to it was removed.
  if (query.isError && (!query.data || query.error.status === 404))
    return <LoadError message={query.error.status === 404 ? t('game.notFound') : `${t('game.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />;
  const tab = TABS.find((name) => name === rest.replace(/\/+$/, ''));
  // An unknown tab, or one the caller may not use: the control panel.
  if (tab === undefined || !may(query.data.data, tabNeeds[tab])) return <Navigate to={to(`/dashboard/game/${encodeURIComponent(id)}`)} replace />;
  return <ControlPanel game={query.data.data} tab={tab} reload={() => void query.refetch()} />;
}

function ControlPanel({ game, tab, reload }: { game: Game; tab: GameTab; reload: () => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const base = `/dashboard/game/${encodeURIComponent(game.id)}`;
  const ram = useFormatRam();
  // Status, address and players, read again when the server says the game changed, and every
  // LIVE_READ_MS while it runs or starts: a running server that missed one look reads STARTING
  // with nothing recorded, so no change event says when it answers again.
  const live = useGameRead<GameStatusView>(game.id, 'status', { refreshEvery: (view) => (view.status === 'RUNNING' || view.status === 'STARTING' ? LIVE_READ_MS : 0) });
  const status: GameStatus = live.data?.status ?? game.status;
  const running = status === 'RUNNING';
  const level = levelOf(game);

  return (
    <Stack spacing={3}>
      <Box>
        <Button component={RouterLink} to={to('/dashboard')} sx={{ mb: 1, ml: -1 }}>
          ← {t('game.back')}
        </Button>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, overflowWrap: 'anywhere' }}>
            {game.name}
          </Typography>
          <StatusChip status={status} size="medium" />
        </Box>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('game.summary', { version: game.version, ram: ram(game.ramMb), players: t('package.playerCount', { count: game.settings.maxPlayers ?? game.maxPlayers }) })}
        </Typography>
        {level !== 'OWNER' && <SharedByChip gameId={game.id} role={level} />}
        {/* A change of offer while it ran: its memory follows at the next restart. */}
        {game.restartNeeded && (
          <Alert severity="info" sx={{ mt: 1.5 }} data-testid="game-restart-needed">
            {t('game.restartNeeded')}
          </Alert>
        )}
      </Box>

      <Tabs value={tab} variant="scrollable" aria-label={t('game.tabs.label')} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {TABS.filter((name) => may(game, tabNeeds[name])).map((name) => (
          <Tab key={name} value={name} label={t(`game.tabs.${name || 'overview'}`)} component={RouterLink} to={to(name ? `${base}/${name}` : base)} />
        ))}
      </Tabs>

      {tab === 'usage' && (
        <Suspense fallback={<PageLoader />}>
          <UsageCard gameId={game.id} />
        </Suspense>
      )}
      {tab === 'settings' && (
        <Stack spacing={3}>
          <SettingsCard gameId={game.id} />
          {may(game, 'OWNER') && <OfferCard game={game} />}
          {may(game, 'OWNER') && <AddressNameCard game={game} />}
          {may(game, 'OWNER') && <DeleteGameCard game={game} />}
        </Stack>
      )}
      {tab === 'console' && (
        <Suspense fallback={<PageLoader />}>
          <ConsoleCard gameId={game.id} running={running} canCommand={may(game, 'MODERATOR')} />
        </Suspense>
      )}
      {tab === 'backups' && <BackupsCard gameId={game.id} canRemove={may(game, 'OWNER')} />}
      {tab === 'schedules' && (
        <Suspense fallback={<PageLoader />}>
          <SchedulesCard gameId={game.id} />
        </Suspense>
      )}
      {tab === 'activity' && (
        <Suspense fallback={<PageLoader />}>
          <ActivityCard gameId={game.id} />
        </Suspense>
      )}
      {tab === 'sharing' && (
        <Suspense fallback={<PageLoader />}>
          <SharingCard gameId={game.id} />
        </Suspense>
      )}
      {tab === '' && <Overview game={game} status={status} running={running} live={live} reload={reload} />}
    </Stack>
  );
}
