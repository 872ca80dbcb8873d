import { Box, Button, MenuItem, TextField } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Friend, FriendGroupMember } from '../../../../contract/social.ts';
import type { RunAction } from '../../../ui/useConfirmedAction.tsx';

interface FriendMemberValues {
  userId: string;
}

/** Adds one of the player's friends not in the group yet. */
export function AddFriendMember({
  groupId,
  friends,
  friendsError,
  loaded,
  members,
  run,
  onAdded,
}: {
  groupId: string;
  friends: Friend[];
  friendsError: string | null;
  loaded: boolean;
  members: FriendGroupMember[];
  run: RunAction;
  onAdded: () => Promise<unknown>;
}) {
  const { t } = useTranslation('social');
  const { control, handleSubmit, watch, reset, refineCore } = useForm<FriendGroupMember, HttpError, FriendMemberValues>({
    defaultValues: { userId: '' },
    refineCoreProps: { resource: 'friendGroupMembers', action: 'create', redirect: false, meta: { params: { groupId } } },
  });
  const inGroup = new Set(members.map((m) => m.userId));
  const choices = friends.filter((f) => !inGroup.has(f.id));
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        await refineCore.onFinish(values);
        reset();
        await onAdded();
      },
      failure: t('members.addFailed'),
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Controller
        control={control}
        name="userId"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            select
            size="small"
            label={t('members.friend')}
            disabled={choices.length === 0}
            error={!!fieldState.error || friendsError !== null}
            helperText={fieldState.error?.message ?? friendsError ?? (choices.length === 0 && loaded ? t('members.noFriendToAdd') : undefined)}
            sx={{ flex: '1 1 200px' }}
          >
            {choices.map((f) => (
              <MenuItem key={f.id} value={f.id}>
                {f.mcName ? `${f.name} (${f.mcName})` : f.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Button type="submit" variant="contained" disabled={refineCore.formLoading || !watch('userId')} sx={{ alignSelf: 'flex-start', mt: 0.25 }}>
        {t('members.addFriend')}
      </Button>
    </Box>
  );
}
