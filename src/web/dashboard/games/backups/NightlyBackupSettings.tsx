import { useState } from 'react';
import { Box, FormControlLabel, MenuItem, Switch, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { BackupSettings } from '../../../../contract/backups.ts';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameRead, useGameWrite } from '../useGameCall.ts';

const hours = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * The nightly backup: on or off, and its hour, saved at once in this browser's time zone (the
 * owner's), which the server keeps across daylight-saving changes.
 */
export function NightlyBackupSettings({ gameId }: { gameId: string }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const current = useGameRead<BackupSettings>(gameId, 'backup-settings');
  const send = useGameWrite<BackupSettings>(gameId);
  const { run, busy, result } = useConfirmedAction();
  // What the server answered to the last change, until the settings are read again.
  const [answered, setAnswered] = useState<{ settings: BackupSettings; over: BackupSettings | undefined } | null>(null);
  const settings = answered && answered.over === current.data ? answered.settings : current.data;

  const save = (change: Partial<BackupSettings>) => {
    if (!settings) return;
    const next: BackupSettings = { nightly: settings.nightly, hour: settings.hour, ...change, timeZone: zone };
    void run({ action: async () => setAnswered({ settings: await send('backup-settings', 'put', next), over: current.data }), failure: t('backups.nightly.failed') });
  };

  return (
    <Box sx={{ mt: 2 }} data-testid="nightly-settings">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('backups.nightly.title')}
      </Typography>
      {current.error && !settings && <LoadError message={errorMessage(current.error)} onRetry={current.refetch} />}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1, mt: 1 }}>
        <FormControlLabel
          control={<Switch checked={settings?.nightly ?? false} disabled={busy || !settings} onChange={(e) => save({ nightly: e.target.checked })} />}
          label={t('backups.nightly.on')}
        />
        <TextField
          select
          size="small"
          label={t('backups.nightly.hour')}
          value={settings?.hour ?? ''}
          disabled={busy || !settings?.nightly}
          onChange={(e) => save({ hour: Number(e.target.value) })}
          sx={{ width: 120 }}
        >
          {hours.map((h) => (
            <MenuItem key={h} value={h}>
              {hourLabel(h)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="nightly-zone">
        {t('backups.nightly.zone', { zone })}
      </Typography>
      {settings?.nightly && settings.timeZone !== zone && (
        <Typography variant="body2" color="text.secondary">
          {t('backups.nightly.savedZone', { zone: settings.timeZone })}
        </Typography>
      )}
      {result?.severity === 'error' && <ActionAlert result={result} />}
    </Box>
  );
}
