import { useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  FormControl,
  FormControlLabel,
  FormLabel,
  FormHelperText,
  InputLabel,
  Link,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { PromoCodeCheck } from '../../../contract/credits.ts';
import type { Game, GameCreate, GameDefinition, GameSettings } from '../../../contract/games.ts';
import { ApiError, apiFetch, errorText, newIdempotencyKey } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage, useFormatRam, useLocalized } from '../../site/store/shared.tsx';

const gameModes = ['survival', 'creative', 'adventure', 'spectator'] as const;
const difficulties = ['peaceful', 'easy', 'normal', 'hard'] as const;
type GameMode = NonNullable<GameSettings['gameMode']>;
type Difficulty = NonNullable<GameSettings['difficulty']>;

/** Buying a server: a package, a name and the world's settings; the price and the balance after. */
export function CreateGamePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const def = useFetch<GameDefinition>(`/v1/definition/game/${encodeURIComponent(id)}`);
  // The shared user: its balance, shown in the header too, is fetched again after the purchase.
  const me = useCurrentUser();

  if (def.status === 'loading' || me.status === 'loading') return <PageLoader />;
  if (def.status === 'error') return <LoadError message={def.error instanceof ApiError && def.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${errorMessage(def.error)}`} onRetry={def.reload} />;
  if (me.status === 'error') return <LoadError message={`${t('create.userError')} ${errorMessage(me.error)}`} onRetry={me.reload} />;
  return <CreateForm definition={def.data} balance={me.data.balance} onBought={me.reload} />;
}

function CreateForm({ definition, balance, onBought }: { definition: GameDefinition; balance: number; onBought: () => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const text = useLocalized();
  const ram = useFormatRam();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const defaults = definition.settings;
  const cheapest = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0];
  const [packageId, setPackageId] = useState(cheapest?.id ?? '');
  const [name, setName] = useState('');
  const [motd, setMotd] = useState(defaults.motd ?? '');
  const [gameMode, setGameMode] = useState<GameMode>(defaults.gameMode ?? 'survival');
  const [difficulty, setDifficulty] = useState<Difficulty>(defaults.difficulty ?? 'normal');
  const [seed, setSeed] = useState(defaults.seed ?? '');
  const [touched, setTouched] = useState(false);
  const [autoRenew, setAutoRenew] = useState(true);
  const [code, setCode] = useState('');
  const [promo, setPromo] = useState<PromoCodeCheck | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);
  const [state, setState] = useState<{ kind: 'idle' | 'sending' } | { kind: 'error'; message: string; noCredits: boolean }>({ kind: 'idle' });
  // The purchase's Idempotency-Key: kept while the same purchase is retried after a lost answer
  // (so it is bought once), renewed when the form changes or the API gave a definite answer.
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const chosen = definition.packages.find((p) => p.id === packageId);
  const listPrice = chosen?.priceCredits ?? 0;
  // Rounded as the API rounds a percentage off the first period.
  const price = promo ? Math.round((listPrice * (100 - Math.min(promo.value, 100))) / 100) : listPrice;
  const after = balance - price;
  // /credits brings the player back here once the credits arrived.
  const buyCredits = `${to('/credits')}?back=${encodeURIComponent(to(`/dashboard/creategame/${definition.id}`))}`;
  const codeValid = /^[A-Za-z0-9_-]{3,32}$/.test(code.trim());

  const checkCode = async () => {
    setPromoError(null);
    try {
      setPromo(await apiFetch<PromoCodeCheck>(`/v1/promocode/${encodeURIComponent(code.trim())}?for=GAME`));
    } catch (err) {
      setPromo(null);
      if (err instanceof ApiError && err.status === 404) setPromoError(t('create.promoUnknown'));
      else if (err instanceof ApiError && err.status === 422) setPromoError(`${t('create.promoUnusable')} ${errorText(err)}`);
      else setPromoError(`${t('create.promoFailed')} ${errorMessage(err)}`);
    }
  };
  const nameError = touched && !name.trim() ? t('create.nameRequired') : '';

  if (definition.packages.length === 0) return <Alert severity="info">{t('product.noPackages')}</Alert>;

  const submit = async () => {
    setTouched(true);
    if (!name.trim() || !chosen) return;
    setState({ kind: 'sending' });
    const settings: GameSettings = { gameMode, difficulty };
    if (motd.trim()) settings.motd = motd.trim();
    if (seed.trim()) settings.seed = seed.trim();
    const body: GameCreate = { definitionId: definition.id, packageId: chosen.id, name: name.trim(), settings, autoRenew, ...(promo ? { promoCode: promo.code } : {}) };
    const sent = JSON.stringify(body);
    if (attempt.current?.body !== sent) attempt.current = { body: sent, key: newIdempotencyKey() };
    try {
      const game = await apiFetch<Game>('/v1/game/create', { method: 'POST', json: body, idempotencyKey: attempt.current.key });
      navigate(to(`/dashboard/game/${game.id}`));
      onBought();
    } catch (err) {
      if (err instanceof ApiError) attempt.current = null;
      setState({ kind: 'error', message: errorMessage(err), noCredits: err instanceof ApiError && err.status === 402 });
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), void submit())}>
      <Button component={RouterLink} to={to(`/dashboard/products/${definition.id}`)} sx={{ mb: 2, ml: -1 }}>
        ← {text(definition.name)}
      </Button>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('create.title', { name: text(definition.name) })}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' }, alignItems: 'start' }}>
        <Stack spacing={3}>
          <Card>
            <CardContent>
              <FormControl component="fieldset" fullWidth>
                <FormLabel component="legend" sx={{ mb: 1, fontWeight: 600 }}>
                  {t('create.package')}
                </FormLabel>
                <RadioGroup value={packageId} onChange={(e) => setPackageId(e.target.value)} sx={{ gap: 1 }}>
                  {definition.packages.map((p) => (
                    <FormControlLabel
                      key={p.id}
                      value={p.id}
                      control={<Radio />}
                      sx={{ m: 0, border: 1, borderColor: p.id === packageId ? 'primary.main' : 'divider', borderRadius: 1, pr: 2, py: 0.5, alignItems: 'center' }}
                      slotProps={{ typography: { sx: { flex: 1 } } }}
                      label={
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, width: '100%' }}>
                          <span>
                            <strong>{p.name}</strong> — {t('create.packageLine', { ram: ram(p.ramMb), players: p.maxPlayers, days: p.periodDays })}
                          </span>
                          <strong>{t('credits', { count: p.priceCredits })}</strong>
                        </Box>
                      }
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            </CardContent>
          </Card>
          <Card>
            <CardContent>
              <Stack spacing={2}>
                <TextField
                  label={t('create.name')}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  onBlur={() => setTouched(true)}
                  required
                  error={!!nameError}
                  helperText={nameError || t('create.nameHelp')}
                  slotProps={{ htmlInput: { maxLength: 60 } }}
                  fullWidth
                />
                <TextField label={t('create.motd')} value={motd} onChange={(e) => setMotd(e.target.value)} slotProps={{ htmlInput: { maxLength: 59 } }} helperText={t('create.motdHelp')} fullWidth />
                <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                  <FormControl fullWidth>
                    <InputLabel id="game-mode-label">{t('create.gameMode')}</InputLabel>
                    <Select labelId="game-mode-label" label={t('create.gameMode')} value={gameMode} onChange={(e) => setGameMode(e.target.value as GameMode)}>
                      {gameModes.map((m) => (
                        <MenuItem key={m} value={m}>
                          {t(`gameMode.${m}`)}
                        </MenuItem>
                      ))}
                    </Select>
                  </FormControl>
                  <FormControl fullWidth>
                    <InputLabel id="difficulty-label">{t('create.difficulty')}</InputLabel>
                    <Select labelId="difficulty-label" label={t('create.difficulty')} value={difficulty} onChange={(e) => setDifficulty(e.target.value as Difficulty)}>
                      {difficulties.map((m) => (
                        <MenuItem key={m} value={m}>
                          {t(`difficulty.${m}`)}
                        </MenuItem>
                      ))}
                    </Select>
                  </FormControl>
                </Box>
                <TextField label={t('create.seed')} value={seed} onChange={(e) => setSeed(e.target.value)} slotProps={{ htmlInput: { maxLength: 32 } }} helperText={t('create.seedHelp')} fullWidth />
              </Stack>
            </CardContent>
          </Card>
        </Stack>

        <Card sx={{ position: { md: 'sticky' }, top: { md: 88 } }}>
          <CardContent>
            <Typography variant="h4" component="h2" sx={{ mb: 2 }}>
              {t('create.summary')}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}>
              <TextField
                size="small"
                label={t('create.promo')}
                value={code}
                onChange={(e) => {
                  setCode(e.target.value.toUpperCase());
                  setPromo(null);
                  setPromoError(null);
                }}
                onKeyDown={(e) => {
                  // Enter checks the code rather than buying the server.
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    if (codeValid) void checkCode();
                  }
                }}
                error={promoError !== null}
                slotProps={{ htmlInput: { maxLength: 32, spellCheck: false } }}
                sx={{ flex: 1 }}
              />
              <Button variant="outlined" onClick={() => void checkCode()} disabled={!codeValid || promo !== null}>
                {t('create.promoApply')}
              </Button>
            </Box>
            {promoError && (
              <Alert severity="error" sx={{ mb: 1 }} data-testid="game-promo-error">
                {promoError}
              </Alert>
            )}
            {promo && (
              <Alert severity="success" sx={{ mb: 1 }} data-testid="game-promo-ok">
                {t('create.promoOk', { code: promo.code, value: promo.value })}
              </Alert>
            )}
            <SummaryLine label={t('create.balance')} value={t('credits', { count: balance })} />
            <SummaryLine label={t('create.price')} value={`− ${t('credits', { count: listPrice })}`} testId="create-price" />
            {promo && <SummaryLine label={t('create.discount', { value: promo.value })} value={`+ ${t('credits', { count: listPrice - price })}`} testId="create-discount" />}
            <Divider sx={{ my: 1 }} />
            <SummaryLine label={t('create.balanceAfter')} value={t('credits', { count: after })} strong error={after < 0} testId="balance-after" />
            {after < 0 && !(state.kind === 'error' && state.noCredits) && (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {t('create.notEnough')}{' '}
                <Link component={RouterLink} to={buyCredits}>
                  {t('create.buyCredits')}
                </Link>
              </Alert>
            )}
            {state.kind === 'error' && (
              <Alert severity="error" sx={{ mt: 2 }} role="alert">
                {state.noCredits ? t('create.paymentRequired') : state.message}{' '}
                {state.noCredits && (
                  <Link component={RouterLink} to={buyCredits}>
                    {t('create.buyCredits')}
                  </Link>
                )}
              </Alert>
            )}
            <FormControlLabel sx={{ mt: 1 }} control={<Switch checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} />} label={t('create.autoRenew')} />
            <FormHelperText sx={{ mt: 0 }}>{t('create.autoRenewHelp')}</FormHelperText>
            <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={state.kind === 'sending' || !chosen}>
              {state.kind === 'sending' ? t('create.sending') : t('create.submit', { count: price })}
            </Button>
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}

function SummaryLine({ label, value, strong, error, testId }: { label: string; value: string; strong?: boolean; error?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: strong ? 700 : 500 }} color={error ? 'error' : undefined} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}
