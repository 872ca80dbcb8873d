import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  IconButton,
  LinearProgress,
  Link,
  List,
  ListItem,
  ListItemText,
  Snackbar,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
  FormControlLabel,
  MenuItem,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import { Campaign as CampaignIcon, ContentCopy as ContentCopyIcon, PlayArrow as PlayArrowIcon, Stop as StopIcon, RestartAlt as RestartAltIcon, DeleteOutline as DeleteOutlineIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { Static } from 'typebox';
import type { Page } from '../../../contract/common.ts';
import type { FriendGroup } from '../../../contract/social.ts';
import { MC_NAME_PATTERN } from '../../../contract/common.ts';
import { playerListTypes, type ConnectedPlayers, type Game, type GameStatus, type GameStatusView, type PlayerList, type PlayerListType, type WhitelistStatus } from '../../../contract/games.ts';
import { ApiError, apiFetch } from '../../app/api.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { RenewalCard } from '../payments/RenewalCard.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { EmptyState, LoadError, StatusChip, formatDate, useConfirm, useErrorMessage, useFormatRam } from '../../site/store/shared.tsx';
import { TransactionsCard } from './TransactionsCard.tsx';
import { usePoll } from './usePoll.ts';

type Connected = Static<typeof ConnectedPlayers>;
type Whitelist = Static<typeof WhitelistStatus>;
type Action = 'start' | 'stop' | 'restart';
type Announced = { notified: number; address: string | null };

const STATUS_POLL_MS = 3000;
const PLAYERS_POLL_MS = 5000;
const busy: GameStatus[] = ['STARTING', 'STOPPING'];
const canDo: Record<Action, GameStatus[]> = { start: ['CREATED', 'STOPPED', 'CRASHED'], stop: ['STARTING', 'RUNNING', 'CRASHED'], restart: ['RUNNING', 'CRASHED'] };

/** The control panel of one of the player's servers. */
export function GamePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const game = useFetch<Game>(`/v1/game/${encodeURIComponent(id)}`);
  if (game.status === 'loading') return <PageLoader />;
  if (game.status === 'error')
    return <LoadError message={game.error instanceof ApiError && game.error.status === 404 ? t('game.notFound') : `${t('game.loadError')} ${errorMessage(game.error)}`} onRetry={game.reload} />;
  return <ControlPanel initial={game.data} />;
}

function ControlPanel({ initial }: { initial: Game }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const ram = useFormatRam();
  const errorMessage = useErrorMessage();
  const { confirm, dialog } = useConfirm();
  const live = usePoll<GameStatusView>(`/v1/game/${initial.id}/status`, STATUS_POLL_MS);
  const [pending, setPending] = useState<Action | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  // A friend group changed a list: the lists card is read again, on that list.
  const [lists, setLists] = useState<{ version: number; type: PlayerListType }>({ version: 0, type: 'WHITELIST' });

  // The game itself (reason of a crash, period, whitelist) is read again, in place, when its status moves.
  const fresh = usePoll<Game>(`/v1/game/${initial.id}`, null);
  const game = fresh.data ?? initial;
  const status: GameStatus = live.data?.status ?? game.status;
  const [seenStatus, setSeenStatus] = useState(status);
  if (seenStatus !== status) {
    setSeenStatus(status);
    fresh.refresh();
  }
  const running = status === 'RUNNING';
  const address = live.data?.address ?? null;

  const act = async (action: Action) => {
    setPending(action);
    setActionError(null);
    try {
      await apiFetch<Game>(`/v1/game/${game.id}/${action}`, { method: 'POST' });
      live.refresh();
    } catch (err) {
      setActionError(errorMessage(err));
    } finally {
      setPending(null);
    }
  };
  const ask = (action: Action) =>
    confirm({ title: t(`game.confirm.${action}.title`), text: t(`game.confirm.${action}.text`, { name: game.name }), confirm: t(`game.actions.${action}`), danger: action !== 'start', run: () => void act(action) });

  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      setActionError(t('game.copyFailed'));
    }
  };

  return (
    <Stack spacing={3}>
      {dialog}
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
          {t('game.summary', { version: game.version, ram: ram(game.ramMb), players: game.maxPlayers })}
        </Typography>
      </Box>

      <RenewalCard game={game} onChanged={fresh.refresh} />

      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              <Button variant="contained" startIcon={<PlayArrowIcon />} disabled={pending !== null || !canDo.start.includes(status)} onClick={() => ask('start')}>
                {t('game.actions.start')}
              </Button>
              <Button variant="outlined" color="error" startIcon={<StopIcon />} disabled={pending !== null || !canDo.stop.includes(status)} onClick={() => ask('stop')}>
                {t('game.actions.stop')}
              </Button>
              <Button variant="outlined" startIcon={<RestartAltIcon />} disabled={pending !== null || !canDo.restart.includes(status)} onClick={() => ask('restart')}>
                {t('game.actions.restart')}
              </Button>
            </Box>
            {(pending !== null || busy.includes(status)) && (
              <Box role="status" aria-live="polite">
                <LinearProgress />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {pending ? t(`game.pending.${pending}`) : t(`game.progress.${status}`)}
                </Typography>
              </Box>
            )}
            {status === 'CRASHED' && (
              <Alert severity="error">
                {t('game.crashed')}
                {game.statusReason ? ` ${game.statusReason}` : ''}
              </Alert>
            )}
            {status === 'EXPIRED' && <Alert severity="warning">{t('game.expired')}</Alert>}
            {actionError && (
              <Alert severity="error" role="alert" onClose={() => setActionError(null)}>
                {actionError}
              </Alert>
            )}
            {live.error !== undefined && <Alert severity="warning">{t('game.liveError')}</Alert>}

            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
              <Box>
                <Typography variant="overline" color="text.secondary">
                  {t('game.address')}
                </Typography>
                {address ? (
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                    <Typography component="code" sx={{ fontFamily: 'monospace', fontSize: '1.05rem', fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="game-address">
                      {address}
                    </Typography>
                    <Tooltip title={t('game.copy')}>
                      <IconButton onClick={() => void copy()} aria-label={t('game.copy')} size="small">
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Box>
                ) : (
                  <Typography color="text.secondary">{t('game.noAddress')}</Typography>
                )}
                {address && (
                  <Link component={RouterLink} to={to(`/mumble-redirect/${encodeURIComponent(hostOf(address))}`)} variant="body2">
                    {t('game.mumble')}
                  </Link>
                )}
              </Box>
              <Box>
                <Typography variant="overline" color="text.secondary">
                  {t('game.players')}
                </Typography>
                <Typography sx={{ fontWeight: 600 }}>{t('game.playersCount', { online: live.data?.playersOnline ?? 0, max: live.data?.maxPlayers ?? game.maxPlayers })}</Typography>
              </Box>
              <Box>
                <Typography variant="overline" color="text.secondary">
                  {t('game.motd')}
                </Typography>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{live.data?.motd ?? game.settings.motd}</Typography>
              </Box>
            </Box>
          </Stack>
        </CardContent>
      </Card>

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <ConnectedCard gameId={game.id} running={running} />
        <WhitelistCard gameId={game.id} initial={game.whitelistEnabled} />
      </Box>
      <FriendsCard gameId={game.id} running={running} onListChanged={(type) => setLists((l) => ({ version: l.version + 1, type }))} />
      <PlayerListsCard key={lists.version} gameId={game.id} initialType={lists.type} />
      <TransactionsCard gameId={game.id} />
      <Snackbar open={copied} autoHideDuration={2500} onClose={() => setCopied(false)} message={t('game.copied')} />
    </Stack>
  );
}

function ConnectedCard({ gameId, running }: { gameId: string; running: boolean }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { confirm, dialog } = useConfirm();
  const players = usePoll<Connected>(running ? `/v1/game/${gameId}/minecraft/players/connected` : null, PLAYERS_POLL_MS);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const kick = async (name: string) => {
    try {
      await apiFetch(`/v1/game/${gameId}/minecraft/kick`, { method: 'POST', json: { name } });
      setMessage({ ok: true, text: t('players.kicked', { name }) });
      players.refresh();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    }
  };
  return (
    <Card>
      {dialog}
      <CardHeader title={t('players.online')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {message && (
          <Alert severity={message.ok ? 'success' : 'error'} onClose={() => setMessage(null)} sx={{ mb: 1 }}>
            {message.text}
          </Alert>
        )}
        {!running ? (
          <Typography color="text.secondary">{t('players.notRunning')}</Typography>
        ) : players.loading ? (
          <LinearProgress />
        ) : players.error !== undefined && !players.data ? (
          <LoadError message={errorMessage(players.error)} onRetry={players.refresh} />
        ) : players.data && players.data.players.length === 0 ? (
          <Typography color="text.secondary">{t('players.none')}</Typography>
        ) : (
          <List dense disablePadding>
            {players.data?.players.map((p) => (
              <ListItem
                key={p.name}
                disableGutters
                secondaryAction={
                  <Button
                    size="small"
                    color="error"
                    onClick={() => confirm({ title: t('players.kickTitle'), text: t('players.kickText', { name: p.name }), confirm: t('players.kick'), danger: true, run: () => void kick(p.name) })}
                  >
                    {t('players.kick')}
                  </Button>
                }
              >
                <ListItemText primary={p.name} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}

function WhitelistCard({ gameId, initial }: { gameId: string; initial: boolean }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const current = useFetch<Whitelist>(`/v1/game/${gameId}/minecraft/whitelist/status`);
  const [override, setOverride] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const enabled = override ?? (current.status === 'done' ? current.data.enabled : initial);
  const toggle = async (next: boolean) => {
    setSaving(true);
    setError(null);
    try {
      const answer = await apiFetch<Whitelist>(`/v1/game/${gameId}/minecraft/whitelist/status?enabled=${next}`, { method: 'PUT' });
      setOverride(answer.enabled);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card>
      <CardHeader title={t('whitelist.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {current.status === 'error' && <LoadError message={errorMessage(current.error)} onRetry={current.reload} />}
        <FormControlLabel
          control={<Switch checked={enabled} disabled={saving || current.status === 'loading'} onChange={(e) => void toggle(e.target.checked)} />}
          label={enabled ? t('whitelist.on') : t('whitelist.off')}
        />
        <Typography variant="body2" color="text.secondary">
          {t('whitelist.help')}
        </Typography>
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

const namePattern = new RegExp(MC_NAME_PATTERN);

function PlayerListsCard({ gameId, initialType }: { gameId: string; initialType: PlayerListType }) {
  const { t, i18n } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { confirm, dialog } = useConfirm();
  const [type, setType] = useState<PlayerListType>(initialType);
  const list = useFetch<PlayerList>(`/v1/game/${gameId}/minecraft/players?type=${type}`);
  const [fresh, setFresh] = useState<PlayerList | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = fresh && fresh.type === type ? fresh : list.status === 'done' ? list.data : null;
  const nameInvalid = name !== '' && !namePattern.test(name);

  const patch = async (player: string, action: 'ADD' | 'REMOVE') => {
    setBusy(true);
    setError(null);
    try {
      setFresh(await apiFetch<PlayerList>(`/v1/game/${gameId}/minecraft/player`, { method: 'POST', json: { name: player, type, action } }));
      if (action === 'ADD') setName('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      {dialog}
      <CardHeader title={t('lists.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <Tabs
        value={type}
        onChange={(_, v: PlayerListType) => {
          setType(v);
          setFresh(null);
          setError(null);
        }}
        variant="fullWidth"
        sx={{ px: { xs: 0, sm: 2 }, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: 0, px: 1 } }}
      >
        {playerListTypes.map((l) => (
          <Tab key={l} value={l} label={t(`lists.${l}`)} />
        ))}
      </Tabs>
      <CardContent>
        <Box component="form" onSubmit={(e) => (e.preventDefault(), name && !nameInvalid && void patch(name, 'ADD'))} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 2 }}>
          <TextField
            size="small"
            label={t('lists.name')}
            value={name}
            onChange={(e) => setName(e.target.value.trim())}
            error={nameInvalid}
            helperText={nameInvalid ? t('lists.nameInvalid') : ' '}
            slotProps={{ htmlInput: { maxLength: 16 } }}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" disabled={busy || !name || nameInvalid} sx={{ mt: 0.25 }}>
            {t('lists.add')}
          </Button>
        </Box>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }} onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        {list.status === 'error' && !shown && <LoadError message={errorMessage(list.error)} onRetry={list.reload} />}
        {!shown && list.status === 'loading' && <LinearProgress />}
        {shown && shown.players.length === 0 && <Typography color="text.secondary">{t(`lists.empty.${type}`)}</Typography>}
        {shown && shown.players.length > 0 && (
          <List dense disablePadding>
            {shown.players.map((p) => (
              <ListItem
                key={p.name}
                disableGutters
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={t('lists.remove', { name: p.name })}
                    disabled={busy}
                    onClick={() =>
                      confirm({ title: t('lists.removeTitle'), text: t('lists.removeText', { name: p.name, list: t(`lists.${type}`) }), confirm: t('lists.removeConfirm'), danger: true, run: () => void patch(p.name, 'REMOVE') })
                    }
                  >
                    <DeleteOutlineIcon />
                  </IconButton>
                }
              >
                <ListItemText primary={p.name} secondary={t('lists.addedAt', { date: formatDate(p.addedAt, i18n.language) })} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}

/** Friend groups on a player list, and telling friends the server is open. */
function FriendsCard({ gameId, running, onListChanged }: { gameId: string; running: boolean; onListChanged: (type: PlayerListType) => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const groups = useFetch<Page<FriendGroup>>('/v1/friend/group?size=100');
  const [groupId, setGroupId] = useState('');
  const [type, setType] = useState<PlayerListType>('WHITELIST');
  const [action, setAction] = useState<'ADD' | 'REMOVE'>('ADD');
  const [busy, setBusy] = useState(false);
  const [groupMessage, setGroupMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [announcing, setAnnouncing] = useState(false);
  const [announceMessage, setAnnounceMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const list = groups.status === 'done' ? groups.data.data : [];
  const group = list.find((g) => g.id === groupId);

  const apply = async () => {
    if (!group) return;
    setBusy(true);
    setGroupMessage(null);
    try {
      await apiFetch<PlayerList>(`/v1/game/${gameId}/minecraft/players`, { method: 'POST', json: { groupId: group.id, type, action } });
      setGroupMessage({ ok: true, text: t(`friends.group.done.${action}`, { group: group.name, list: t(`lists.${type}`) }) });
      onListChanged(type);
    } catch (err) {
      setGroupMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const announce = async () => {
    setAnnouncing(true);
    setAnnounceMessage(null);
    try {
      const answer = await apiFetch<Announced>(`/v1/game/${gameId}/announce`, { method: 'POST' });
      setAnnounceMessage({ ok: true, text: t('friends.announce.done', { count: answer.notified }) });
    } catch (err) {
      // 429 and 409 carry their reason (when to try again, why not now) in the detail.
      setAnnounceMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setAnnouncing(false);
    }
  };

  return (
    <Card data-testid="friends-card">
      <CardHeader title={t('friends.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={3}>
          <Box component="section" aria-labelledby="friends-group-title">
            <Typography id="friends-group-title" variant="subtitle1" component="h3" sx={{ mb: 0.5, fontWeight: 700 }}>
              {t('friends.group.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('friends.group.help')}
            </Typography>
            {groups.status === 'loading' && <LinearProgress />}
            {groups.status === 'error' && <LoadError message={errorMessage(groups.error)} onRetry={groups.reload} />}
            {groups.status === 'done' && list.length === 0 && (
              <EmptyState title={t('friends.group.empty')}>
                <Button component={RouterLink} to={to('/dashboard/social')} variant="outlined">
                  {t('friends.group.toSocial')}
                </Button>
              </EmptyState>
            )}
            {list.length > 0 && (
              <Box
                component="form"
                onSubmit={(e) => (e.preventDefault(), void apply())}
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
              >
                <TextField select size="small" label={t('friends.group.group')} value={groupId} onChange={(e) => setGroupId(e.target.value)} sx={{ flex: '1 1 200px', minWidth: 0 }}>
                  {list.map((g) => (
                    <MenuItem key={g.id} value={g.id}>
                      {t('friends.group.option', { name: g.name, count: g.memberCount })}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField select size="small" label={t('friends.group.list')} value={type} onChange={(e) => setType(e.target.value as PlayerListType)} sx={{ flex: '1 1 160px', minWidth: 0 }}>
                  {playerListTypes.map((l) => (
                    <MenuItem key={l} value={l}>
                      {t(`lists.${l}`)}
                    </MenuItem>
                  ))}
                </TextField>
                <ToggleButtonGroup exclusive size="small" value={action} onChange={(_, v: 'ADD' | 'REMOVE' | null) => v && setAction(v)} aria-label={t('friends.group.action')}>
                  <ToggleButton value="ADD">{t('friends.group.ADD')}</ToggleButton>
                  <ToggleButton value="REMOVE">{t('friends.group.REMOVE')}</ToggleButton>
                </ToggleButtonGroup>
                <Button type="submit" variant="contained" disabled={busy || !group}>
                  {t('friends.group.apply')}
                </Button>
              </Box>
            )}
            {groupMessage && (
              <Alert severity={groupMessage.ok ? 'success' : 'error'} role={groupMessage.ok ? 'status' : 'alert'} onClose={() => setGroupMessage(null)} sx={{ mt: 2 }}>
                {groupMessage.text}
              </Alert>
            )}
          </Box>
          <Box component="section" aria-labelledby="friends-announce-title">
            <Typography id="friends-announce-title" variant="subtitle1" component="h3" sx={{ mb: 0.5, fontWeight: 700 }}>
              {t('friends.announce.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {running ? t('friends.announce.help') : t('friends.announce.notRunning')}
            </Typography>
            <Button variant="outlined" startIcon={<CampaignIcon />} disabled={!running || announcing} onClick={() => void announce()}>
              {t('friends.announce.button')}
            </Button>
            {announceMessage && (
              <Alert severity={announceMessage.ok ? 'success' : 'error'} role={announceMessage.ok ? 'status' : 'alert'} onClose={() => setAnnounceMessage(null)} sx={{ mt: 2 }}>
                {announceMessage.text}
              </Alert>
            )}
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The host of a game address (`host:port`, `[v6]:port`): voice chat runs on the host, not on the game port. */
export function hostOf(address: string): string {
  const v6 = /^\[([^\]]+)\]/.exec(address);
  if (v6) return v6[1]!;
  const colon = address.lastIndexOf(':');
  return colon > 0 && address.indexOf(':') === colon ? address.slice(0, colon) : address;
}
