import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, FormControl, InputLabel, MenuItem, Select, Skeleton, Stack, Typography } from '@mui/material';
import { useCustom, useCustomMutation, useSubscription, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { RankedMatch, RankedMe, RankedModeList } from '../../../contract/competitions.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { ContentPage } from '../../content/ContentPage.tsx';
import { Leaderboards } from '../../site/ranked/Leaderboards.tsx';
import { TournamentLists } from '../../site/ranked/TournamentLists.tsx';
import { formatNumber, useLocalized } from '../../ui/format.ts';
import { LoadError } from '../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { LinkMinecraftCallout } from '../profile/LinkMinecraftCallout.tsx';

// Its chart's library is heavy: loaded once the page shows.
const RankedHistoryCard = lazy(() => import('./RankedHistoryCard.tsx'));

const ME = '/v1/ranked/me';
const QUEUE = '/v1/ranked/queue';

/** Seconds since `since`, counted on the page every second (a clock on screen, not a read of the API). */
function useSecondsSince(since: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!since) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since ? Math.max(0, Math.floor((now - Date.parse(since)) / 1000)) : 0;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** Seconds left until `until`, counted on the page every second; 0 once past. */
function useSecondsUntil(until: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until ? Math.max(0, Math.ceil((Date.parse(until) - now) / 1000)) : 0;
}

/** Where to join the LIVE match's server, with a copy button, and the time left to join. */
function JoinAddress({ address, joinBy }: { address: string; joinBy: string | null }) {
  const { t } = useTranslation('ranked');
  const left = useSecondsUntil(joinBy);
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Box sx={{ my: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="code" sx={{ fontFamily: 'monospace', fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="ranked-match-address">
          {address}
        </Typography>
        <Button size="small" variant="outlined" onClick={() => void copy()}>
          {copied ? t('match.copied') : t('match.copy')}
        </Button>
      </Box>
      {copied === false ? <Typography color="error">{t('match.copyFailed')}</Typography> : null}
      {joinBy ? (
        <Typography color={left > 0 ? 'text.secondary' : 'warning.main'} data-testid="ranked-match-countdown" aria-live="polite">
          {left > 0 ? t('match.joinWithin', { time: clock(left) }) : t('match.joinOver')}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The match being played or about to be: the opponent, its state, where to join and the score. */
function MatchCard({ match, userId }: { match: RankedMatch; userId: string }) {
  const { t } = useTranslation('ranked');
  const localized = useLocalized();
  const [first, second] = match.players;
  const [mine, theirs] = first?.id === userId ? [first, second] : [second, first];
  return (
    <Card data-testid="ranked-match" variant="outlined" sx={{ borderColor: 'secondary.main' }}>
      <CardHeader title={t('match.title')} titleTypographyProps={{ variant: 'h4', component: 'h3' }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="ranked-opponent">
          {t('match.against', { mode: localized(match.modeName), opponent: theirs?.mcName ?? theirs?.name ?? '' })}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', my: 1 }}>
          <Chip color={match.status === 'LIVE' ? 'success' : 'default'} label={t(`match.status.${match.status}`)} data-testid="ranked-match-status" />
          <Typography variant="h5" component="p">
            {t('match.score', { mine: mine?.kills ?? 0, theirs: theirs?.kills ?? 0 })}
          </Typography>
        </Box>
        {match.address ? <JoinAddress address={match.address} joinBy={match.joinBy} /> : null}
        <Typography color="text.secondary">{t('match.rules', { kills: match.killsToWin, minutes: Math.round(match.timeLimitSeconds / 60) })}</Typography>
      </CardContent>
    </Card>
  );
}

/**
 * /dashboard/ranked: the player's ladders. Pick a mode, join or leave its queue, watch the wait,
 * see the match once paired (the page hears of it on the event stream) and the season's ratings;
 * then the leaderboards and the competitions' pages, as on /ranked.
 */
export function RankedLadderPage() {
  const { t, i18n } = useTranslation('ranked');
  const localized = useLocalized();
  const modes = useCustom<RankedModeList & BaseRecord, ApiError>({ url: '/v1/ranked/modes', method: 'get' });
  const me = useCustom<RankedMe & BaseRecord, ApiError>({ url: ME, method: 'get' });
  const user = useCustom<{ id: string } & BaseRecord, ApiError>({ url: '/v1/user', method: 'get' });
  // Paired, a result, a join or leave from another tab: the server names `ranked` on the stream.
  useSubscription({
    channel: 'resources/ranked',
    types: ['*'],
    onLiveEvent: () => {
      void me.query.refetch();
      void modes.query.refetch();
    },
  });
  const { mutateAsync } = useCustomMutation<BaseRecord, ApiError>();
  const { run, busy, result, dialog } = useConfirmedAction();
  const [chosen, setChosen] = useState<string>('');
  const state = me.query.data?.data as RankedMe | undefined;
  const list = (modes.query.data?.data as RankedModeList | undefined)?.data ?? [];
  const season = (modes.query.data?.data as RankedModeList | undefined)?.season.key ?? '';
  const modeId = chosen || state?.queue?.modeId || list[0]?.id || '';
  const waited = useSecondsSince(state?.queue?.joinedAt ?? null);
  const userId = (user.query.data?.data as { id: string } | undefined)?.id ?? '';

  const refresh = async () => {
    await Promise.all([me.query.refetch(), modes.query.refetch()]);
  };
  const join = () =>
    run({
      action: async () => {
        await mutateAsync({ url: QUEUE, method: 'post', values: { modeId }, successNotification: false, errorNotification: false });
        await refresh();
      },
      failure: t('queue.joinFailed'),
    });
  const leave = () =>
    run({
      confirm: { title: t('queue.leaveConfirm.title'), text: t('queue.leaveConfirm.text'), confirm: t('queue.leaveConfirm.confirm') },
      action: async () => {
        await mutateAsync({ url: QUEUE, method: 'delete', values: {}, successNotification: false, errorNotification: false });
        await refresh();
      },
      failure: t('queue.leaveFailed'),
    });

  const queuedMode = list.find((m) => m.id === state?.queue?.modeId);
  const failed = me.query.isError ? me.query.error : modes.query.isError ? modes.query.error : null;
  return (
    <>
      <title>{`${t('competitions')} · BlockHost`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 2 }}>
        {t('competitions')}
      </Typography>
      <Typography variant="h2" sx={{ fontSize: { xs: '1.5rem', md: '1.8rem' }, mb: 1 }}>
        {t('queue.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 780 }}>
        {t('queue.intro')}
      </Typography>
      {failed ? (
        <LoadError message={`${t('queue.loadError')} ${errorText(failed)}`} onRetry={() => void refresh()} />
      ) : !state || !modes.query.data ? (
        <Skeleton variant="rounded" height={200} data-testid="ranked-loading" />
      ) : (
        <Stack spacing={3}>
          {!state.linked && (
            <Box>
              <Alert severity="warning" sx={{ mb: 1 }}>
                {t('queue.notLinked')}
              </Alert>
              <LinkMinecraftCallout />
            </Box>
          )}
          {state.match ? (
            <MatchCard match={state.match} userId={userId} />
          ) : (
            <Card data-testid="ranked-queue">
              <CardContent>
                {state.queue ? (
                  <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, alignItems: 'flex-start' }}>
                    <Typography sx={{ fontWeight: 700 }} data-testid="ranked-waiting">
                      {t('queue.waiting', { mode: queuedMode ? localized(queuedMode.name) : '' })}
                    </Typography>
                    <Typography color="text.secondary" aria-live="off">
                      {t('queue.waitingFor', { time: clock(waited) })}
                    </Typography>
                    <Button variant="outlined" color="error" onClick={leave} disabled={busy}>
                      {t('queue.leave')}
                    </Button>
                  </Box>
                ) : (
                  <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: { xs: 'stretch', sm: 'center' } }}>
                    <FormControl sx={{ minWidth: 220 }} size="small">
                      <InputLabel id="ranked-mode-label">{t('queue.mode')}</InputLabel>
                      <Select labelId="ranked-mode-label" label={t('queue.mode')} value={modeId} onChange={(e) => setChosen(e.target.value)}>
                        {list.map((m) => (
                          <MenuItem key={m.id} value={m.id}>
                            {localized(m.name)}
                          </MenuItem>
                        ))}
                      </Select>
                    </FormControl>
                    <Button variant="contained" onClick={join} disabled={busy || !state.linked || !modeId}>
                      {t('queue.join')}
                    </Button>
                  </Box>
                )}
                {list
                  .filter((m) => m.id === modeId)
                  .map((m) => (
                    <Typography key={m.id} variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                      {t('queue.modeRules', { kills: m.killsToWin, minutes: Math.round(m.timeLimitSeconds / 60) })} · {t('queue.waitingCount', { count: m.waiting })}
                    </Typography>
                  ))}
                <ActionAlert result={result} testId="ranked-result" />
              </CardContent>
            </Card>
          )}
          <Card>
            <CardHeader title={t('ratings.title')} titleTypographyProps={{ variant: 'h4', component: 'h3' }} />
            <CardContent sx={{ pt: 0 }} data-testid="ranked-ratings">
              {state.ratings.length === 0 ? (
                <Typography color="text.secondary">{t('ratings.empty')}</Typography>
              ) : (
                state.ratings.map((r) => {
                  const mode = list.find((m) => m.id === r.modeId);
                  return (
                    <Box key={r.modeId} sx={{ mb: 1.5 }}>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                        <Typography sx={{ fontWeight: 700 }}>{mode ? localized(mode.name) : ''}</Typography>
                        <Typography variant="h5" component="p">
                          {t('ratings.line', { rating: formatNumber(r.rating, i18n.language), rd: r.rd })}
                        </Typography>
                        {r.provisional && <Chip size="small" variant="outlined" label={t('ratings.provisional')} title={t('ratings.provisionalHint')} />}
                      </Box>
                      <Typography variant="body2" color="text.secondary">
                        {t('ratings.record', { wins: r.wins, losses: r.losses, draws: r.draws })}
                      </Typography>
                    </Box>
                  );
                })
              )}
            </CardContent>
          </Card>
          {userId && modeId && season ? (
            <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
              <RankedHistoryCard userId={userId} modeId={modeId} season={season} />
            </Suspense>
          ) : null}
        </Stack>
      )}
      <TournamentLists />
      <Leaderboards />
      {dialog}
      <Box sx={{ mx: { xs: -2, sm: -3 } }}>
        <ContentPage path="/ranked" embedded />
      </Box>
    </>
  );
}
