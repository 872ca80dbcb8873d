import { useState } from 'react';
import { Button, Card, CardContent, CardHeader, LinearProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { ConnectedPlayers } from '../../../../contract/games.ts';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { LIVE_READ_MS, useGameRead, useGameWrite } from '../useGameCall.ts';

type Connected = Static<typeof ConnectedPlayers>;

/**
 * Who plays on the server now, each with a kick after a confirmation: read while it runs, again when
 * the server says someone joined or left, and every LIVE_READ_MS (a player kicked and back at once
 * was never announced, and the list said nobody plays for as long as they stayed).
 */
export function ConnectedCard({ gameId, running, canKick = true }: { gameId: string; running: boolean; canKick?: boolean }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const players = useGameRead<Connected>(gameId, 'minecraft/players/connected', { enabled: running, refreshEvery: () => LIVE_READ_MS });
  const send = useGameWrite(gameId);
  const { run, busy, result, dialog } = useConfirmedAction();
  // "X was kicked" holds until X is back: once the list has shown them gone, seeing them again ends it.
  const [kicked, setKicked] = useState<{ name: string; gone: boolean } | null>(null);
  const online = players.data?.players.some((p) => p.name === kicked?.name) ?? false;
  if (kicked && players.data && !online && !kicked.gone) setKicked({ ...kicked, gone: true });
  const back = kicked?.gone === true && online;
  const kick = (name: string) =>
    void run({
      confirm: { title: t('players.kickTitle'), text: t('players.kickText', { name }), confirm: t('players.kick'), danger: true, reason: { label: t('players.reason'), maxLength: 200 } },
      action: async (reason) => {
        await send('minecraft/kick', 'post', reason ? { name, reason } : { name });
        setKicked({ name, gone: false });
        players.refetch();
      },
      success: t('players.kicked', { name }),
      failure: t('actionFailed'),
    });
  return (
    <Card>
      {dialog}
      <CardHeader title={t('players.online')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        <ActionAlert result={back ? null : result} />
        {!running ? (
          <Typography color="text.secondary">{t('players.notRunning')}</Typography>
        ) : players.loading ? (
          <LinearProgress />
        ) : players.error && !players.data ? (
          <LoadError message={errorMessage(players.error)} onRetry={players.refetch} />
        ) : players.data?.players.length === 0 ? (
          <Typography color="text.secondary">{t('players.none')}</Typography>
        ) : (
          <List dense disablePadding>
            {players.data?.players.map((p) => (
              <ListItem
                key={p.name}
                disableGutters
                secondaryAction={
                  canKick && (
                    <Button size="small" color="error" disabled={busy} onClick={() => kick(p.name)}>
                      {t('players.kick')}
                    </Button>
                  )
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
