import { Box, Button } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FriendGroupMember } from '../../../../contract/social.ts';
import { McNameInput, isMcName } from '../../../ui/McNameInput.tsx';
import type { RunAction } from '../../../ui/useConfirmedAction.tsx';

interface NameMemberValues {
  mcName: string;
}

/** Adds a player by Minecraft name, a friend or not (`friendGroupNames` are the group's members added by name). */
export function AddNameMember({ groupId, run, onAdded }: { groupId: string; run: RunAction; onAdded: () => Promise<unknown> }) {
  const { t } = useTranslation('social');
  const { control, handleSubmit, watch, reset, formState, refineCore } = useForm<FriendGroupMember, HttpError, NameMemberValues>({
    mode: 'onChange',
    defaultValues: { mcName: '' },
    refineCoreProps: { resource: 'friendGroupNames', action: 'create', redirect: false, meta: { params: { groupId } } },
  });
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        await refineCore.onFinish({ mcName: values.mcName.trim() });
        reset();
        await onAdded();
      },
      failure: t('members.addFailed'),
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <McNameInput control={control} name="mcName" label={t('members.mcName')} sx={{ flex: '1 1 200px' }} />
      <Button type="submit" variant="contained" disabled={refineCore.formLoading || !isMcName(watch('mcName')) || !!formState.errors.mcName} sx={{ alignSelf: 'flex-start', mt: 0.25 }}>
        {t('members.addName')}
      </Button>
    </Box>
  );
}
