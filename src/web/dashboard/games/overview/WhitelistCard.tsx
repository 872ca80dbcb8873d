import { useState } from 'react';
import { Card, CardContent, CardHeader, FormControlLabel, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { WhitelistStatus } from '../../../../contract/games.ts';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameRead, useGameWrite } from '../useGameCall.ts';

type Whitelist = Static<typeof WhitelistStatus>;

/** Whether only the whitelist may join: a switch, read from the server and set at once. */
export function WhitelistCard({ gameId, initial, canChange = true }: { gameId: string; initial: boolean; canChange?: boolean }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const current = useGameRead<Whitelist>(gameId, 'minecraft/whitelist/status');
  const send = useGameWrite<Whitelist>(gameId);
  const { run, busy, result } = useConfirmedAction();
  // What the server answered to the last change, until the status is read again (after a change here or elsewhere).
  const [answered, setAnswered] = useState<{ enabled: boolean; over: Whitelist | undefined } | null>(null);
  const enabled = answered && answered.over === current.data ? answered.enabled : (current.data?.enabled ?? initial);
  const toggle = (next: boolean) =>
    void run({
      action: async () => setAnswered({ enabled: (await send(`minecraft/whitelist/status?enabled=${next}`, 'put')).enabled, over: current.data }),
      failure: t('actionFailed'),
    });
  return (
    <Card>
      <CardHeader title={t('whitelist.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {current.error && !current.data && <LoadError message={errorMessage(current.error)} onRetry={current.refetch} />}
        <FormControlLabel
          control={<Switch checked={enabled} disabled={!canChange || busy || current.loading} onChange={(e) => toggle(e.target.checked)} />}
          label={enabled ? t('whitelist.on') : t('whitelist.off')}
        />
        <Typography variant="body2" color="text.secondary">
          {t('whitelist.help')}
        </Typography>
        <ActionAlert result={result} />
      </CardContent>
    </Card>
  );
}
