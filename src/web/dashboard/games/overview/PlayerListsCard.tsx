import { useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, IconButton, LinearProgress, List, ListItem, ListItemText, Tab, Tabs, TextField, Typography } from '@mui/material';
import { DeleteOutline as DeleteOutlineIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { MC_NAME_PATTERN } from '../../../../contract/values.ts';
import { playerListTypes, type PlayerList, type PlayerListType } from '../../../../contract/games.ts';
import { formatDate } from '../../../ui/format.ts';
import { LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameRead, useGameWrite } from '../useGameCall.ts';

const namePattern = new RegExp(MC_NAME_PATTERN);

/**
 * The whitelist, operators and bans, a tab each: add a player by name, remove one after a
 * confirmation, on the lists `mayChange` allows (a moderator's are not the operators).
 */
export function PlayerListsCard({ gameId, initialType, mayChange = () => true }: { gameId: string; initialType: PlayerListType; mayChange?: (type: PlayerListType) => boolean }) {
  const { t, i18n } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [type, setType] = useState<PlayerListType>(initialType);
  const list = useGameRead<PlayerList>(gameId, `minecraft/players?type=${type}`);
  const send = useGameWrite<PlayerList>(gameId);
  const { run, busy, result, dismiss, dialog } = useConfirmedAction();
  // The list as the last change answered it, until the list is read again (after a change here or elsewhere).
  const [answered, setAnswered] = useState<{ list: PlayerList; over: PlayerList | undefined } | null>(null);
  const [name, setName] = useState('');
  const shown = answered?.list.type === type && answered.over === list.data ? answered.list : list.data?.type === type ? list.data : null;
  const nameInvalid = name !== '' && !namePattern.test(name);
  const canChange = mayChange(type);

  const patch = (player: string, action: 'ADD' | 'REMOVE') =>
    run({
      ...(action === 'REMOVE' && {
        confirm: { title: t('lists.removeTitle'), text: t('lists.removeText', { name: player, list: t(`lists.${type}`) }), confirm: t('lists.removeConfirm'), danger: true },
      }),
      // A ban is asked first, with the reason the player is shown.
      ...(action === 'ADD' &&
        type === 'BANNED' && {
          confirm: {
            title: t('lists.banTitle', { name: player }),
            text: t('lists.banText', { name: player }),
            confirm: t('lists.banConfirm'),
            danger: true,
            reason: { label: t('players.reason'), maxLength: 200 },
          },
        }),
      action: async (reason) => setAnswered({ list: await send('minecraft/player', 'post', { name: player, type, action, ...(reason && { reason }) }), over: list.data }),
      failure: t('actionFailed'),
    });

  return (
    <Card>
      {dialog}
      <CardHeader title={t('lists.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <Tabs
        value={type}
        onChange={(_, v: PlayerListType) => {
          setType(v);
          setAnswered(null);
          dismiss();
        }}
        variant="fullWidth"
        sx={{ px: { xs: 0, sm: 2 }, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: 0, px: 1 } }}
      >
        {playerListTypes.map((l) => (
          <Tab key={l} value={l} label={t(`lists.${l}`)} />
        ))}
      </Tabs>
      <CardContent>
        {canChange && (
          <Box
            component="form"
            onSubmit={(e) => {
              e.preventDefault();
              if (name && !nameInvalid) void patch(name, 'ADD').then((added) => added && setName(''));
            }}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 2 }}
          >
            <TextField
              size="small"
              label={t('lists.name')}
              value={name}
              onChange={(e) => setName(e.target.value.trim())}
              error={nameInvalid}
              helperText={nameInvalid ? t('lists.nameInvalid') : ' '}
              slotProps={{ htmlInput: { maxLength: 16 } }}
              sx={{ flex: 1 }}
            />
            <Button type="submit" variant="contained" disabled={busy || !name || nameInvalid} sx={{ mt: 0.25 }}>
              {t('lists.add')}
            </Button>
          </Box>
        )}
        {result?.severity === 'error' && (
          <Box sx={{ mb: 2 }}>
            <ActionAlert result={result} />
          </Box>
        )}
        {list.error && !shown && <LoadError message={errorMessage(list.error)} onRetry={list.refetch} />}
        {!shown && !list.error && <LinearProgress />}
        {shown?.players.length === 0 && <Typography color="text.secondary">{t(`lists.empty.${type}`)}</Typography>}
        {shown && shown.players.length > 0 && (
          <List dense disablePadding>
            {shown.players.map((p) => (
              <ListItem
                key={p.name}
                disableGutters
                secondaryAction={
                  canChange && (
                    <IconButton edge="end" aria-label={t('lists.remove', { name: p.name })} disabled={busy} onClick={() => void patch(p.name, 'REMOVE')}>
                      <DeleteOutlineIcon />
                    </IconButton>
                  )
                }
              >
                <ListItemText primary={p.name} secondary={t('lists.addedAt', { date: formatDate(p.addedAt, i18n.language) })} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
