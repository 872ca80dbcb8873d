import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Checkbox, FormControlLabel, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameSettingsView, GameVersionResult } from '../../../../contract/settings.ts';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameWrite } from '../useGameCall.ts';

/**
 * The Minecraft version, among those the game's definition offers, with what a change does said
 * before it is made: an automatic backup, a restart when it runs, and for an older version a
 * warning the owner confirms explicitly.
 */
export function VersionPicker({ gameId, view }: { gameId: string; view: GameSettingsView }) {
  const { t } = useTranslation('settings');
  const send = useGameWrite<GameVersionResult>(gameId);
  const { run, busy, result, dialog } = useConfirmedAction();
  // What the server answered to the last change, until the settings are read again.
  const [answered, setAnswered] = useState<{ version: string; over: string } | null>(null);
  const current = answered && answered.over === view.version ? answered.version : view.version;
  const [version, setVersion] = useState(view.version);
  const [confirmed, setConfirmed] = useState(false);
  // The versions are listed oldest first: one before the current one is a downgrade.
  const downgrade = view.versions.indexOf(version) < view.versions.indexOf(current);
  const changing = version !== current;

  const change = () =>
    void run({
      confirm: { title: t('version.confirmTitle', { version }), text: view.running ? t('version.confirmRunning') : t('version.confirmStopped'), confirm: t('version.change'), danger: downgrade },
      action: () => send('version', 'put', { version, ...(downgrade ? { confirmDowngrade: confirmed } : {}) }),
      success: (answer) => {
        setAnswered({ version: answer.version, over: view.version });
        setConfirmed(false);
        return answer.restarting ? t('version.doneRestarting', { version: answer.version }) : t('version.done', { version: answer.version });
      },
      failure: t('version.failed'),
    });

  return (
    <Card data-testid="version-card">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 0.5 }}>
          {t('version.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('version.current', { version: current })}
        </Typography>
        {view.versions.length <= 1 ? (
          <Typography variant="body2">{t('version.only')}</Typography>
        ) : (
          <>
            <TextField
              select
              label={t('version.label')}
              value={version}
              onChange={(e) => {
                setVersion(e.target.value);
                setConfirmed(false);
              }}
              sx={{ minWidth: 180 }}
            >
              {view.versions.map((v) => (
                <MenuItem key={v} value={v}>
                  {v}
                </MenuItem>
              ))}
            </TextField>
            {changing && (
              <Box sx={{ mt: 2 }} data-testid="version-plan">
                <Typography variant="body2" component="ul" sx={{ pl: 2.5, m: 0 }}>
                  <li>{t('version.planBackup')}</li>
                  <li>{view.running ? t('version.planRestart', { version }) : t('version.planNextStart', { version })}</li>
                </Typography>
                {downgrade && (
                  <Alert severity="warning" sx={{ mt: 1.5 }}>
                    {t('version.downgradeWarning', { from: current, to: version })}
                    <FormControlLabel
                      sx={{ display: 'flex', mt: 1 }}
                      control={<Checkbox checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />}
                      label={t('version.downgradeConfirm')}
                    />
                  </Alert>
                )}
                <Button variant="contained" color={downgrade ? 'warning' : 'primary'} sx={{ mt: 2 }} disabled={busy || (downgrade && !confirmed)} onClick={change}>
                  {t('version.change')}
                </Button>
              </Box>
            )}
          </>
        )}
        <ActionAlert result={result} />
        {dialog}
      </CardContent>
    </Card>
  );
}
