import { useEffect, useRef, useState } from 'react';
import { Box, Button, Card, CardContent, Chip, Container, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { TOURNAMENT_CHANGE_EVENT, type Entrant, type Tournament } from '../../../contract/tournaments.ts';
import { useSession } from '../../app/auth.tsx';
import { apiQuery, hasFailed, useApiWrite } from '../../app/queries.ts';
import { formatDate, formatNumber, useLocalized } from '../../ui/format.ts';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { BracketView } from './BracketView.tsx';
import { EntrantsTable } from './EntrantsTable.tsx';

/**
 * Reads the tournament again at each change its public stream announces (a result, an entrant), and
 * when the stream comes back after a cut. One stream for the page's life: `refetch` is read from a
 * ref, so a render never closes it (a change sent meanwhile would be lost).
 */
function useLiveTournament(slug: string, refetch: () => void) {
  const latest = useRef(refetch);
  useEffect(() => {
    latest.current = refetch;
  });
  useEffect(() => {
    const source = new EventSource(`/v1/tournaments/${encodeURIComponent(slug)}/stream`);
    let opened = false;
    source.addEventListener(TOURNAMENT_CHANGE_EVENT, () => latest.current());
    source.addEventListener('open', () => {
      // A reopened stream may have missed changes meanwhile.
      if (opened) latest.current();
      opened = true;
    });
    return () => source.close();
  }, [slug]);
}

/** The time on the page, moved on every 15 s: the windows open and close on screen without a read. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const active = (mine: Entrant | null) => mine?.status === 'REGISTERED' || mine?.status === 'CHECKED_IN';

/** A signed-in player's entry: register, check in, withdraw, as the tournament's windows allow. */
function EntryActions({ tournament: x, onDone }: { tournament: Tournament; onDone: () => void }) {
  const { t, i18n } = useTranslation('ranked');
  const localized = useLocalized();
  const write = useApiWrite();
  const { run, busy, result, dialog } = useConfirmedAction();
  const now = useNow();
  const within = (from: string, to: string) => now >= Date.parse(from) && now < Date.parse(to);
  const url = (path: string) => `/v1/tournaments/${x.slug}/${path}`;
  const name = localized(x.name);
  const fee = formatNumber(x.entryFee, i18n.language);
  const act = (request: Parameters<typeof run>[0]) => void run(request).then((done) => done && onDone());
  if (x.status !== 'SCHEDULED') return null;
  const canRegister = !active(x.mine) && within(x.registrationOpensAt, x.registrationClosesAt) && x.entrants < x.maxEntrants;
  const canCheckIn = x.mine?.status === 'REGISTERED' && within(x.checkInOpensAt, x.checkInClosesAt);
  return (
    <Card variant="outlined" data-testid="tournament-entry">
      <CardContent>
        <Typography sx={{ fontWeight: 700, mb: 1 }} data-testid="tournament-my-status">
          {x.mine && active(x.mine) ? t(`tournaments.mine.${x.mine.status}`) : t('tournaments.mine.none')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          {canRegister && (
            <Button
              variant="contained"
              disabled={busy}
              onClick={() =>
                act({
                  confirm:
                    x.entryFee > 0
                      ? { title: t('tournaments.register.title', { name }), text: t('tournaments.register.text', { fee }), confirm: t('tournaments.register.confirm'), danger: false }
                      : undefined,
                  action: () => write.mutateAsync({ url: url('registration'), method: 'post' }),
                  success: t('tournaments.register.done'),
                  failure: t('tournaments.register.failed'),
                })
              }
            >
              {x.entryFee > 0 ? t('tournaments.register.buttonFee', { fee }) : t('tournaments.register.button')}
            </Button>
          )}
          {canCheckIn && (
            <Button
              variant="contained"
              color="secondary"
              disabled={busy}
              onClick={() => act({ action: () => write.mutateAsync({ url: url('check-in'), method: 'post' }), success: t('tournaments.checkIn.done'), failure: t('tournaments.checkIn.failed') })}
            >
              {t('tournaments.checkIn.button')}
            </Button>
          )}
          {active(x.mine) && (
            <Button
              variant="outlined"
              color="error"
              disabled={busy}
              onClick={() =>
                act({
                  confirm: {
                    title: t('tournaments.withdraw.title', { name }),
                    text: x.entryFee > 0 ? t('tournaments.withdraw.textFee', { fee }) : t('tournaments.withdraw.text'),
                    confirm: t('tournaments.withdraw.confirm'),
                  },
                  action: () => write.mutateAsync({ url: url('registration'), method: 'delete' }),
                  success: t('tournaments.withdraw.done'),
                  failure: t('tournaments.withdraw.failed'),
                })
              }
            >
              {t('tournaments.withdraw.button')}
            </Button>
          )}
        </Stack>
        <ActionAlert result={result} testId="tournament-result" />
        {dialog}
      </CardContent>
    </Card>
  );
}

/** /ranked/{slug}: a tournament's facts and rules, the entry buttons of a signed-in player, the live bracket, the results and the entrants. */
export function TournamentPage() {
  const { t, i18n } = useTranslation('ranked');
  const localized = useLocalized();
  const errorMessage = useErrorMessage();
  const session = useSession();
  const slug = useParams().slug ?? '';
  const query = useQuery(apiQuery<Tournament>(`/v1/tournaments/${slug}`));
  const { refetch } = query;
  useLiveTournament(slug, () => void refetch());
  const x = query.data;
  const lang = i18n.language;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 6 } }}>
      {hasFailed(query) ? (
        <LoadError message={`${t('tournaments.loadError')} ${errorMessage(query.error)}`} onRetry={() => void refetch()} />
      ) : !x ? (
        <Skeleton variant="rounded" height={320} />
      ) : (
        <Stack spacing={3}>
          <title>{`${localized(x.name)} · BlockHost`}</title>
          <Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' }, overflowWrap: 'anywhere' }}>
                {localized(x.name)}
              </Typography>
              <Chip label={t(`tournaments.status.${x.status}`)} color={x.status === 'LIVE' ? 'secondary' : 'default'} data-testid="tournament-status" />
            </Box>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t(`tournaments.formats.${x.format}`)} · {localized(x.modeName)} · {t('tournaments.entrantsCount', { count: x.entrants, max: x.maxEntrants })}
            </Typography>
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
                columnGap: 2,
                rowGap: 0.5,
                mt: 2,
                '& dd': { m: 0, mb: { xs: 1, sm: 0 } },
                '& dt': { color: 'text.secondary' },
              }}
            >
              <dt>{t('tournaments.facts.registration')}</dt>
              <dd>{t('tournaments.facts.window', { from: formatDate(x.registrationOpensAt, lang), to: formatDate(x.registrationClosesAt, lang) })}</dd>
              <dt>{t('tournaments.facts.checkIn')}</dt>
              <dd>{t('tournaments.facts.window', { from: formatDate(x.checkInOpensAt, lang), to: formatDate(x.checkInClosesAt, lang) })}</dd>
              <dt>{t('tournaments.facts.start')}</dt>
              <dd>{formatDate(x.startsAt, lang)}</dd>
              <dt>{t('tournaments.facts.fee')}</dt>
              <dd>{x.entryFee > 0 ? t('tournaments.credits', { credits: formatNumber(x.entryFee, lang) }) : t('tournaments.facts.free')}</dd>
              <dt>{t('tournaments.facts.prizes')}</dt>
              <dd>
                {[x.prizeFirst, x.prizeSecond, x.prizeThird].every((p) => p === 0)
                  ? t('tournaments.facts.noPrize')
                  : [x.prizeFirst, x.prizeSecond, x.prizeThird]
                      .map((p, i) => (p > 0 ? t('tournaments.facts.prize', { place: i + 1, credits: formatNumber(p, lang) }) : null))
                      .filter(Boolean)
                      .join(' · ')}
              </dd>
            </Box>
            {x.cancelReason && <Typography sx={{ mt: 1 }}>{t('tournaments.cancelled', { reason: x.cancelReason === 'notEnoughEntrants' ? t('tournaments.notEnough') : x.cancelReason })}</Typography>}
          </Box>
          {session.status === 'authenticated' && <EntryActions tournament={x} onDone={() => void refetch()} />}
          {x.results.length > 0 && (
            <Box component="section" aria-labelledby="tournament-results">
              <Typography id="tournament-results" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 1 }}>
                {t('tournaments.results')}
              </Typography>
              <Stack spacing={0.5} data-testid="tournament-results">
                {x.results.map((r) => (
                  <Typography key={r.place} sx={{ fontWeight: r.place === 1 ? 700 : 400 }}>
                    {t('tournaments.place', { place: r.place, name: r.player.mcName ?? r.player.name })}
                    {r.prize > 0 && ` · ${t(r.prizePaid ? 'tournaments.credits' : 'tournaments.prizeNotPaid', { credits: formatNumber(r.prize, lang) })}`}
                  </Typography>
                ))}
              </Stack>
            </Box>
          )}
          <Box component="section" aria-labelledby="tournament-bracket">
            <Typography id="tournament-bracket" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 1 }}>
              {t('tournaments.bracket.title')}
            </Typography>
            {x.bracket.length === 0 ? <Typography color="text.secondary">{t('tournaments.bracket.notYet')}</Typography> : <BracketView matches={x.bracket} />}
          </Box>
          <Box component="section" aria-labelledby="tournament-rules">
            <Typography id="tournament-rules" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 1 }}>
              {t('tournaments.rules')}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-line', maxWidth: 780 }}>{localized(x.rules)}</Typography>
          </Box>
          <Box component="section" aria-labelledby="tournament-entrants">
            <Typography id="tournament-entrants" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 1 }}>
              {t('tournaments.entrants')}
            </Typography>
            <EntrantsTable entrants={x.entrantList} labelledBy="tournament-entrants" />
          </Box>
        </Stack>
      )}
    </Container>
  );
}
