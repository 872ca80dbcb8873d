import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Link,
  Radio,
  RadioGroup,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { SwapVert as ChangeIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { Game } from '../../../../contract/games.ts';
import type { OfferOption, OfferQuote, OfferResult } from '../../../../contract/offer.ts';
import type { ApiError } from '../../../app/api.ts';
import { useCurrentUser } from '../../../app/currentUser.tsx';
import { useLocalePath } from '../../../app/locale.tsx';
import { formatDate, useFormatRam, useLocalized } from '../../../ui/format.ts';
import { PageLoader } from '../../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameRead, useGameWrite } from '../useGameCall.ts';

/**
 * The owner's plan, on the settings tab: the package the game has, and a dialog to change to another
 * of its definition, each with what it costs or gives back for the days left of the period, the
 * backups it would delete (confirmed with a checkbox), the players limit it lowers and whether the
 * server must restart for the new memory (docs/architecture.md, "Changing the offer").
 */
export function OfferCard({ game }: { game: Game }) {
  const { t } = useTranslation('settings');
  const ram = useFormatRam();
  const [open, setOpen] = useState(false);

  return (
    <Card data-testid="offer-card">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 0.5 }}>
          {t('offer.title')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography color="text.secondary" sx={{ flex: '1 1 18rem' }}>
            {t('offer.intro', { ram: ram(game.ramMb), players: game.maxPlayers })}
          </Typography>
          <Button variant="outlined" startIcon={<ChangeIcon />} onClick={() => setOpen(true)} disabled={game.expiredAt !== null && game.expiredAt !== undefined}>
            {t('offer.open')}
          </Button>
        </Box>
        {game.restartNeeded && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="offer-restart-needed">
            {t('offer.restartNeeded')}
          </Alert>
        )}
        {open && <OfferDialog game={game} close={() => setOpen(false)} />}
      </CardContent>
    </Card>
  );
}

function OfferDialog({ game, close }: { game: Game; close: () => void }) {
  const { t, i18n } = useTranslation(['settings', 'games']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const errorMessage = useErrorMessage();
  const user = useCurrentUser();
  const quote = useGameRead<OfferQuote>(game.id, 'offer');
  const send = useGameWrite<OfferResult>(game.id);
  const { run, busy, result } = useConfirmedAction();
  const [chosen, setChosen] = useState<string | null>(null);
  const [backupsConfirmed, setBackupsConfirmed] = useState(false);
  const [short, setShort] = useState(false);
  const [done, setDone] = useState<OfferResult | null>(null);
  const option = quote.data?.options.find((o) => o.package.id === chosen && !o.current);

  const confirm = () =>
    option &&
    void run({
      action: async () => {
        setShort(false);
        try {
          const answer = await send('offer', 'post', { packageId: option.package.id, ...(option.backupsToDelete.length ? { confirmDeleteBackupIds: option.backupsToDelete.map((b) => b.id) } : {}) });
          user.reload();
          setDone(answer);
          return answer;
        } catch (err) {
          // 402: the API says what is missing; the message adds the way to buy credits.
          if ((err as ApiError).status === 402) setShort(true);
          throw err;
        }
      },
      failure: t('offer.failed'),
    });

  return (
    <Dialog open onClose={close} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="offer-title" data-testid="offer-dialog">
      <DialogTitle id="offer-title">{t('offer.dialogTitle', { name: game.name })}</DialogTitle>
      <DialogContent>
        {quote.loading ? (
          <PageLoader />
        ) : quote.error || !quote.data ? (
          <LoadError message={`${t('offer.loadError')} ${quote.error ? errorMessage(quote.error) : ''}`} onRetry={quote.refetch} />
        ) : done ? (
          <Alert severity="success" data-testid="offer-done">
            {[
              done.amount > 0
                ? t('offer.doneCharged', { credits: t('games:credits', { count: done.amount }) })
                : done.amount < 0
                  ? t('offer.doneCredited', { credits: t('games:credits', { count: -done.amount }) })
                  : t('offer.doneFree'),
              done.deletedBackups > 0 ? t('offer.doneBackups', { count: done.deletedBackups }) : '',
              done.restartNeeded ? t('offer.restartNeeded') : '',
            ]
              .filter(Boolean)
              .join(' ')}
          </Alert>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('offer.period', { count: quote.data.daysLeft, date: formatDate(quote.data.periodEnd, i18n.language), balance: t('games:credits', { count: quote.data.balance }) })}
            </Typography>
            <RadioGroup
              value={chosen ?? ''}
              onChange={(e) => {
                setChosen(e.target.value);
                setBackupsConfirmed(false);
              }}
              aria-labelledby="offer-title"
            >
              {quote.data.options.map((o) => (
                <OptionRow key={o.package.id} option={o} />
              ))}
            </RadioGroup>
            {option && <Consequences option={option} backupsConfirmed={backupsConfirmed} setBackupsConfirmed={setBackupsConfirmed} />}
            {result?.severity === 'error' && (
              <Alert severity="error" sx={{ mt: 2 }} data-testid="offer-error">
                {result.text} {short && <BuyCreditsLink />}
              </Alert>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{done ? t('offer.close') : t('offer.cancel')}</Button>
        {!done && (
          <Button variant="contained" onClick={confirm} disabled={!option || busy || (option.backupsToDelete.length > 0 && !backupsConfirmed)} data-testid="offer-confirm">
            {option ? offerAmount(t, option) : t('offer.pick')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The confirm button's words: what pressing it does to the balance. */
function offerAmount(t: ReturnType<typeof useTranslation<['settings', 'games']>>['t'], option: OfferOption): string {
  const credits = t('games:credits', { count: Math.abs(option.amount) });
  if (option.amount > 0) return t('offer.confirmCharge', { credits });
  if (option.amount < 0) return t('offer.confirmCredit', { credits });
  return t('offer.confirmFree');
}

function OptionRow({ option }: { option: OfferOption }) {
  const { t } = useTranslation(['settings', 'games']);
  const ram = useFormatRam();
  const localized = useLocalized();
  const pkg = option.package;
  const amount =
    option.amount > 0
      ? t('offer.charge', { credits: t('games:credits', { count: option.amount }) })
      : option.amount < 0
        ? t('offer.credit', { credits: t('games:credits', { count: -option.amount }) })
        : t('offer.free');
  return (
    <FormControlLabel
      value={pkg.id}
      disabled={option.current}
      control={<Radio />}
      data-testid={`offer-option-${pkg.id}`}
      sx={{ alignItems: 'flex-start', mx: 0, mb: 1.5, '& .MuiRadio-root': { pt: 0.25 } }}
      label={
        <Box>
          <Typography sx={{ fontWeight: 600 }}>
            {localized(pkg.name)} {option.current && `(${t('offer.current')})`}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('offer.figures', {
              ram: ram(pkg.ramMb),
              players: t('games:package.playerCount', { count: pkg.maxPlayers }),
              backups: t('offer.backupsKept', { count: pkg.backupsKept }),
              price: t('offer.price', { credits: t('games:credits', { count: pkg.priceCredits }), count: pkg.periodDays }),
            })}
          </Typography>
          {!option.current && (
            <Typography variant="body2" sx={{ fontWeight: 600 }} color={option.amount < 0 ? 'success.main' : 'text.primary'} data-testid="offer-amount">
              {amount}
            </Typography>
          )}
        </Box>
      }
    />
  );
}

/** What the chosen package changes besides the balance, and the backups' confirmation. */
function Consequences({ option, backupsConfirmed, setBackupsConfirmed }: { option: OfferOption; backupsConfirmed: boolean; setBackupsConfirmed: (value: boolean) => void }) {
  const { t, i18n } = useTranslation(['settings', 'games']);
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {option.missing > 0 && (
        <Alert severity="warning" data-testid="offer-missing">
          {t('offer.missing', { credits: t('games:credits', { count: option.missing }) })} <BuyCreditsLink />
        </Alert>
      )}
      {option.maxPlayersLowered && <Alert severity="info">{t('offer.maxPlayersLowered', option.maxPlayersLowered)}</Alert>}
      {option.restartNeeded && <Alert severity="info">{t('offer.restartAfter')}</Alert>}
      {option.backupsToDelete.length > 0 && (
        <Alert severity="warning" data-testid="offer-backups">
          {t('offer.backupsGo', { count: option.backupsToDelete.length })}
          <Typography component="ul" variant="body2" sx={{ pl: 2.5, my: 1 }}>
            {option.backupsToDelete.map((b) => (
              <li key={b.id}>
                {t('games:backups.named', { date: formatDate(b.createdAt, i18n.language), kind: b.reason ? t(`games:backups.reason.${b.reason}`) : t(`games:backups.kind.${b.kind}`) })}
              </li>
            ))}
          </Typography>
          <FormControlLabel
            control={<Checkbox checked={backupsConfirmed} onChange={(e) => setBackupsConfirmed(e.target.checked)} />}
            label={t('offer.backupsConfirm', { count: option.backupsToDelete.length })}
          />
        </Alert>
      )}
    </Box>
  );
}

/** To the credits page and back here, from a short balance. */
function BuyCreditsLink() {
  const { t } = useTranslation('settings');
  const to = useLocalePath();
  const { pathname } = useLocation();
  return (
    <Link component={RouterLink} to={`${to('/credits')}?back=${encodeURIComponent(pathname)}`}>
      {t('offer.buyCredits')}
    </Link>
  );
}
