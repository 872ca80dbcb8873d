import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { PersonAdd as PersonAddIcon } from '@mui/icons-material';
import { useInvalidate, type CreateResponse, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FriendAddResult } from '../../../../contract/social.ts';
import { McNameInput, isMcName } from '../../../ui/McNameInput.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';

interface AddFriendValues {
  mcName: string;
}

/**
 * A friend request by Minecraft name (`friendRequests` are created at /v1/friend/mcname). When they
 * had asked first, the answer is a friendship at once and the friends list shows them.
 */
export function AddFriendCard() {
  const { t } = useTranslation('social');
  const invalidate = useInvalidate();
  const { control, handleSubmit, watch, reset, formState, refineCore } = useForm<FriendAddResult, HttpError, AddFriendValues>({
    mode: 'onChange',
    defaultValues: { mcName: '' },
    refineCoreProps: { resource: 'friendRequests', action: 'create', redirect: false },
  });
  const { run, busy, result } = useConfirmedAction();
  const name = watch('mcName');
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        // Refine's forms wait for the answer by default (pessimistic), so there is one to read.
        const { data } = (await refineCore.onFinish({ mcName: values.mcName.trim() })) as CreateResponse<FriendAddResult>;
        reset();
        if (data.status === 'ACCEPTED') await invalidate({ resource: 'friends', invalidates: ['list'] });
        return data;
      },
      success: ({ status, user }) => t(status === 'ACCEPTED' ? 'add.accepted' : 'add.sent', { name: user.mcName ?? user.name }),
      failure: t('add.failed'),
    }),
  );
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
          {t('add.title')}
        </Typography>
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <McNameInput control={control} name="mcName" label={t('add.label')} help={t('add.help')} sx={{ flex: '1 1 220px' }} />
          <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={busy || !isMcName(name) || !!formState.errors.mcName} sx={{ mt: 0.25 }}>
            {t('add.submit')}
          </Button>
        </Box>
        <ActionAlert result={result} testId="add-friend-result" />
      </CardContent>
    </Card>
  );
}
