import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { useForm } from '@refinedev/react-hook-form';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { GameSettingsResult, GameSettingsView, SettingKey, SettingValues } from '../../../../contract/settings.ts';
import type { ApiError } from '../../../app/api.ts';
import { PageLoader } from '../../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useGameRead } from '../useGameCall.ts';
import { IconUpload } from './IconUpload.tsx';
import { VersionPicker } from './VersionPicker.tsx';

const gameModes = ['survival', 'creative', 'adventure', 'spectator'] as const;
const difficulties = ['peaceful', 'easy', 'normal', 'hard'] as const;
const switches = ['pvp', 'allowFlight', 'whitelistEnabled'] as const;
const numbers = [
  { name: 'viewDistance', min: 2, max: 32 },
  { name: 'spawnProtection', min: 0, max: 64 },
] as const;
/** The sleep choices offered (the API takes 0, never, or any minute from 5 to 120). */
const sleepChoices = [0, 5, 10, 15, 30, 60, 120];

/** The Settings tab: the server's settings, its icon and its version. */
export function SettingsCard({ gameId }: { gameId: string }) {
  const { t } = useTranslation('settings');
  const errorMessage = useErrorMessage();
  const view = useGameRead<GameSettingsView>(gameId, 'settings');
  if (!view.data) return view.error ? <LoadError message={`${t('loadError')} ${errorMessage(view.error)}`} onRetry={view.refetch} /> : <PageLoader />;
  return (
    <Stack spacing={3}>
      <SettingsForm gameId={gameId} view={view.data} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <IconUpload gameId={gameId} view={view.data} />
        <VersionPicker gameId={gameId} view={view.data} />
      </Box>
    </Stack>
  );
}

type Values = SettingValues & { restart?: boolean };

function SettingsForm({ gameId, view }: { gameId: string; view: GameSettingsView }) {
  const { t } = useTranslation(['settings', 'games']);
  const errorMessage = useErrorMessage();
  const [answer, setAnswer] = useState<GameSettingsResult | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    formState: { dirtyFields },
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<GameSettingsResult, ApiError, Values>({
    defaultValues: view.values,
    refineCoreProps: {
      // The game's settings are its item `settings` (PUT /v1/game/{id}/settings); read with the page.
      resource: 'gameItems',
      action: 'edit',
      id: 'settings',
      meta: { params: { gameId } },
      queryOptions: { enabled: false },
      redirect: false,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: ({ data }) => setAnswer(data),
    },
  });
  // What the server holds, once read or saved: the form starts again from it.
  const saved = JSON.stringify(view.values);
  useEffect(() => reset(JSON.parse(saved) as SettingValues), [saved, reset]);

  const changed = (Object.keys(dirtyFields) as SettingKey[]).filter((k) => dirtyFields[k]);
  const needRestart = changed.some((k) => !view.live.includes(k));
  const failure = mutation.error;
  const submit = (restart: boolean) =>
    handleSubmit((values) => {
      setAnswer(null);
      const body = Object.fromEntries(changed.map((k) => [k, values[k]]));
      return onFinish({ ...body, restart } as Values).catch(() => {});
    });

  return (
    <Card component="form" noValidate onSubmit={(e) => void submit(false)(e)} data-testid="settings-form">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 0.5 }}>
          {t('title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('intro')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <Controller
            control={control}
            name="motd"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                label={t('fields.motd')}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? t('live')}
                slotProps={{ htmlInput: { maxLength: 59 } }}
                sx={{ gridColumn: { sm: '1 / -1' } }}
                fullWidth
              />
            )}
          />
          <Choice control={control} name="gameMode" options={gameModes} labelKey="games:gameMode" label={t('fields.gameMode')} help={t('restart')} />
          <Choice control={control} name="difficulty" options={difficulties} labelKey="games:difficulty" label={t('fields.difficulty')} help={t('live')} />
          <Controller
            control={control}
            name="maxPlayers"
            rules={{ min: { value: 1, message: t('atLeast', { min: 1 }) }, max: { value: view.packageMaxPlayers, message: t('atMostPackage', { max: view.packageMaxPlayers }) } }}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                type="number"
                label={t('fields.maxPlayers')}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? t('maxPlayersHelp', { max: view.packageMaxPlayers })}
                slotProps={{ htmlInput: { min: 1, max: view.packageMaxPlayers } }}
                fullWidth
              />
            )}
          />
          {numbers.map(({ name, min, max }) => (
            <Controller
              key={name}
              control={control}
              name={name}
              rules={{ min: { value: min, message: t('between', { min, max }) }, max: { value: max, message: t('between', { min, max }) } }}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                  type="number"
                  label={t(`fields.${name}`)}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t('restart')}
                  slotProps={{ htmlInput: { min, max } }}
                  fullWidth
                />
              )}
            />
          ))}
          <Controller
            control={control}
            name="sleepAfterMinutes"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                select
                onChange={(e) => field.onChange(Number(e.target.value))}
                label={t('fields.sleepAfterMinutes')}
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? t('sleepHelp')}
                slotProps={{ htmlInput: { 'data-testid': 'sleep-after' } }}
                fullWidth
              >
                {[...new Set([...sleepChoices, field.value])]
                  .sort((a, b) => a - b)
                  .map((m) => (
                    <MenuItem key={m} value={m}>
                      {m === 0 ? t('sleepOff') : t('sleepMinutes', { count: m })}
                    </MenuItem>
                  ))}
              </TextField>
            )}
          />
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, mt: 1 }}>
          {switches.map((name) => (
            <Controller
              key={name}
              control={control}
              name={name}
              render={({ field, fieldState }) => (
                <Box>
                  <FormControlLabel control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t(`fields.${name}`)} />
                  {fieldState.error && (
                    <Typography variant="caption" color="error" component="p">
                      {fieldState.error.message}
                    </Typography>
                  )}
                </Box>
              )}
            />
          ))}
        </Box>
        {changed.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="settings-plan">
            {view.running ? (needRestart ? t('planRestart') : t('planLive')) : t('planStopped')}
          </Typography>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 2 }}>
          <Button type="submit" variant={view.running && needRestart ? 'outlined' : 'contained'} disabled={changed.length === 0 || formLoading}>
            {t('apply')}
          </Button>
          {view.running && needRestart && (
            <Button variant="contained" disabled={formLoading} onClick={(e) => void submit(true)(e)}>
              {t('applyRestart')}
            </Button>
          )}
        </Box>
        {failure && !failure.errors && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {`${t('failed')} ${errorMessage(failure)}`}
          </Alert>
        )}
        {answer && <Outcome answer={answer} />}
      </CardContent>
    </Card>
  );
}

/** What the last save did: applied now, waiting for a restart, or restarting. */
function Outcome({ answer }: { answer: GameSettingsResult }) {
  const { t } = useTranslation('settings');
  const names = (keys: SettingKey[]) => keys.map((k) => t(`fields.${k}`)).join(', ');
  const lines = [
    answer.applied.length > 0 && t('outcome.applied', { names: names(answer.applied) }),
    answer.restarting && t('outcome.restarting'),
    !answer.restarting && answer.pendingRestart.length > 0 && t('outcome.pending', { names: names(answer.pendingRestart) }),
  ].filter(Boolean);
  return (
    <Alert severity="success" sx={{ mt: 2 }} data-testid="settings-outcome">
      {lines.length > 0 ? lines.join(' ') : t('outcome.saved')}
    </Alert>
  );
}

function Choice({
  control,
  name,
  options,
  labelKey,
  label,
  help,
}: {
  control: Control<Values>;
  name: 'gameMode' | 'difficulty';
  options: readonly string[];
  labelKey: string;
  label: string;
  help: string;
}) {
  const { t } = useTranslation(['settings', 'games']);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField {...field} select label={label} error={!!fieldState.error} helperText={fieldState.error?.message ?? help} fullWidth>
          {options.map((o) => (
            <MenuItem key={o} value={o}>
              {t(`${labelKey}.${o}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
