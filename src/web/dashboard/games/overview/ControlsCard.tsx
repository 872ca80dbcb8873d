import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, IconButton, LinearProgress, Link, Snackbar, Stack, Tooltip, Typography } from '@mui/material';
import { ContentCopy as ContentCopyIcon, PlayArrow as PlayArrowIcon, RestartAlt as RestartAltIcon, Stop as StopIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Game, GameStatusView } from '../../../../contract/games.ts';
import type { GameStatus } from '../../../../contract/values.ts';
import { useAppConfig } from '../../../app/config.ts';
import { useLocalePath } from '../../../app/locale.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { MinecraftText } from '../console/MinecraftText.tsx';
import { formatDate } from '../../../ui/format.ts';
import { useGameWrite } from '../useGameCall.ts';

type Action = 'start' | 'stop' | 'restart';

const busy: GameStatus[] = ['STARTING', 'STOPPING'];
const canDo: Record<Action, GameStatus[]> = { start: ['CREATED', 'STOPPED', 'CRASHED', 'SLEEPING'], stop: ['STARTING', 'RUNNING', 'CRASHED', 'SLEEPING'], restart: ['RUNNING', 'CRASHED'] };
const icons = { start: <PlayArrowIcon />, stop: <StopIcon />, restart: <RestartAltIcon /> };

/**
 * Start, stop, restart (each after a confirmation), the progress of a start or stop, and what the
 * server shows now: its address (to copy, with the voice chat link when a Mumble server is configured), players and MOTD.
 */
export function ControlsCard({
  game,
  status,
  live,
  liveFailed,
  onActed,
  canPower = true,
}: {
  game: Game;
  status: GameStatus;
  live: GameStatusView | undefined;
  liveFailed: boolean;
  onActed: () => void;
  /** Whether the caller may start, stop and restart it (its owner or a co-admin): else no buttons. */
  canPower?: boolean;
}) {
  const { t, i18n } = useTranslation('games');
  const to = useLocalePath();
  const send = useGameWrite<Game>(game.id);
  const { run, busy: acting, result, dialog } = useConfirmedAction();
  const [pending, setPending] = useState<Action | null>(null);
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const address = live?.address ?? null;
  const { mumble } = useAppConfig();
  // The configured voice server (an IPv6 address in brackets, as in any URL), its channel named after the game.
  const voice =
    mumble && `/mumble-redirect/${encodeURIComponent(mumble.host.includes(':') ? `[${mumble.host}]:${mumble.port}` : `${mumble.host}:${mumble.port}`)}?channel=${encodeURIComponent(game.name)}`;

  const ask = (action: Action) =>
    void run({
      confirm: { title: t(`game.confirm.${action}.title`), text: t(`game.confirm.${action}.text`, { name: game.name }), confirm: t(`game.actions.${action}`), danger: action !== 'start' },
      action: async () => {
        setPending(action);
        try {
          await send(action, 'post');
          onActed();
        } finally {
          setPending(null);
        }
      },
      failure: t('actionFailed'),
    });

  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      setCopyFailed(true);
    }
  };

  return (
    <Card>
      {dialog}
      <CardContent>
        <Stack spacing={2}>
          {canPower && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {(['start', 'stop', 'restart'] as const).map((action) => (
                <Button
                  key={action}
                  variant={action === 'start' ? 'contained' : 'outlined'}
                  color={action === 'stop' ? 'error' : 'primary'}
                  startIcon={icons[action]}
                  disabled={acting || !canDo[action].includes(status)}
                  onClick={() => ask(action)}
                >
                  {t(`game.actions.${action}`)}
                </Button>
              ))}
            </Box>
          )}
          {(pending !== null || busy.includes(status)) && (
            <Box role="status" aria-live="polite">
              <LinearProgress />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {pending ? t(`game.pending.${pending}`) : t(`game.progress.${status}`)}
              </Typography>
            </Box>
          )}
          {status === 'CRASHED' && (
            // Not the status reason: the runtime's words, in English, for the back office; the owner's notice says why in their language.
            <Alert severity="error">{t('game.crashed')}</Alert>
          )}
          {status === 'EXPIRED' && <Alert severity="warning">{t('game.expired')}</Alert>}
          {status === 'SLEEPING' && (
            <Alert severity="info" data-testid="game-sleeping">
              {t('game.sleeping', { date: formatDate(game.statusChangedAt, i18n.language) })}
            </Alert>
          )}
          {result?.severity === 'error' && <ActionAlert result={result} />}
          {copyFailed && (
            <Alert severity="error" onClose={() => setCopyFailed(false)}>
              {t('game.copyFailed')}
            </Alert>
          )}
          {liveFailed && <Alert severity="warning">{t('game.liveError')}</Alert>}

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
              {address && live?.directAddress && (
                // Where `*.localhost` or the game domain does not resolve, the server's own port still works.
                <Typography variant="body2" color="text.secondary" data-testid="game-direct-address" sx={{ overflowWrap: 'anywhere' }}>
                  {t('game.directAddress', { address: live.directAddress })}
                </Typography>
              )}
              {voice && (
                <Link component={RouterLink} to={to(voice)} variant="body2">
                  {t('game.mumble')}
                </Link>
              )}
            </Box>
            <Box>
              <Typography variant="overline" color="text.secondary">
                {t('game.players')}
              </Typography>
              <Typography sx={{ fontWeight: 600 }}>{t('game.playersCount', { online: live?.playersOnline ?? 0, max: live?.maxPlayers ?? game.settings.maxPlayers ?? game.maxPlayers })}</Typography>
            </Box>
            <Box>
              <Typography variant="overline" color="text.secondary">
                {t('game.motd')}
              </Typography>
              {/* As the game's server list shows it: its § colour codes drawn, on the list's dark ground. */}
              <Typography data-testid="game-motd" sx={{ overflowWrap: 'anywhere', bgcolor: '#15171a', color: '#aaaaaa', px: 1, py: 0.5, borderRadius: 1, fontFamily: 'monospace' }}>
                <MinecraftText text={live?.motd ?? game.settings.motd} />
              </Typography>
            </Box>
          </Box>
        </Stack>
      </CardContent>
      <Snackbar open={copied} autoHideDuration={2500} onClose={() => setCopied(false)} message={t('game.copied')} />
    </Card>
  );
}
