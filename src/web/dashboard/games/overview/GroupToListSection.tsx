import { useState } from 'react';
import { Box, Button, LinearProgress, MenuItem, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { FriendGroup } from '../../../../contract/social.ts';
import { playerListTypes, type PlayerListType } from '../../../../contract/games.ts';
import type { ApiError } from '../../../app/api.ts';
import { useLocalePath } from '../../../app/locale.tsx';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { ResultAlert } from '../ResultAlert.tsx';
import { useGameWrite } from '../useGameCall.ts';

/** Adds a friend group's members (those with a Minecraft name) to a player list, or removes them. */
export function GroupToListSection({ gameId, onListChanged }: { gameId: string; onListChanged: (type: PlayerListType) => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const { query, result: groups } = useList<FriendGroup, ApiError>({ resource: 'friendGroups', pagination: { pageSize: 100 } });
  const send = useGameWrite(gameId);
  const { run, busy, result, dismiss } = useConfirmedAction();
  const [groupId, setGroupId] = useState('');
  const [type, setType] = useState<PlayerListType>('WHITELIST');
  const [action, setAction] = useState<'ADD' | 'REMOVE'>('ADD');
  const group = groups.data.find((g) => g.id === groupId);

  const apply = () => {
    if (!group) return;
    void run({
      action: async () => {
        await send('minecraft/players', 'post', { groupId: group.id, type, action });
        onListChanged(type);
      },
      success: t(`friends.group.done.${action}`, { group: group.name, list: t(`lists.${type}`) }),
      failure: t('actionFailed'),
    });
  };

  return (
    <Box component="section" aria-labelledby="friends-group-title">
      <Typography id="friends-group-title" variant="subtitle1" component="h3" sx={{ mb: 0.5, fontWeight: 700 }}>
        {t('friends.group.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('friends.group.help')}
      </Typography>
      {query.isPending && <LinearProgress />}
      {query.isError && <LoadError message={errorMessage(query.error)} onRetry={() => void query.refetch()} />}
      {query.isSuccess && groups.data.length === 0 && (
        <EmptyState title={t('friends.group.empty')}>
          <Button component={RouterLink} to={to('/dashboard/social')} variant="outlined">
            {t('friends.group.toSocial')}
          </Button>
        </EmptyState>
      )}
      {groups.data.length > 0 && (
        <Box component="form" onSubmit={(e) => (e.preventDefault(), apply())} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <TextField select size="small" label={t('friends.group.group')} value={groupId} onChange={(e) => setGroupId(e.target.value)} sx={{ flex: '1 1 200px', minWidth: 0 }}>
            {groups.data.map((g) => (
              <MenuItem key={g.id} value={g.id}>
                {t('friends.group.option', { name: g.name, count: g.memberCount })}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label={t('friends.group.list')} value={type} onChange={(e) => setType(e.target.value as PlayerListType)} sx={{ flex: '1 1 160px', minWidth: 0 }}>
            {playerListTypes.map((l) => (
              <MenuItem key={l} value={l}>
                {t(`lists.${l}`)}
              </MenuItem>
            ))}
          </TextField>
          <ToggleButtonGroup exclusive size="small" value={action} onChange={(_, v: 'ADD' | 'REMOVE' | null) => v && setAction(v)} aria-label={t('friends.group.action')}>
            <ToggleButton value="ADD">{t('friends.group.ADD')}</ToggleButton>
            <ToggleButton value="REMOVE">{t('friends.group.REMOVE')}</ToggleButton>
          </ToggleButtonGroup>
          <Button type="submit" variant="contained" disabled={busy || !group}>
            {t('friends.group.apply')}
          </Button>
        </Box>
      )}
      <ResultAlert result={result} onClose={dismiss} />
    </Box>
  );
}
