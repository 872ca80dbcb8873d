import { Box, Button } from '@mui/material';
import { Add as AddIcon } from '@mui/icons-material';
import type { CreateResponse, HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FriendGroup } from '../../../../contract/social.ts';
import type { RunAction } from '../../../ui/useConfirmedAction.tsx';
import { GroupNameInput, type GroupNameValues } from './GroupNameInput.tsx';

/** A new group by name; it opens once created. */
export function CreateGroupForm({ run, onCreated }: { run: RunAction; onCreated: (group: FriendGroup) => void }) {
  const { t } = useTranslation('social');
  const { control, handleSubmit, watch, reset, refineCore } = useForm<FriendGroup, HttpError, GroupNameValues>({
    defaultValues: { name: '' },
    refineCoreProps: { resource: 'friendGroups', action: 'create', redirect: false },
  });
  const name = watch('name').trim();
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        // Refine's forms wait for the answer by default (pessimistic), so there is one to read.
        const { data } = (await refineCore.onFinish({ name: values.name.trim() })) as CreateResponse<FriendGroup>;
        reset();
        onCreated(data);
        return data;
      },
      success: (g) => t('groups.created', { name: g.name }),
      failure: t('groups.createFailed'),
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, mb: 1, alignItems: 'flex-start' }}>
      <GroupNameInput control={control} label={t('groups.newName')} sx={{ flex: 1 }} />
      <Button type="submit" variant="contained" startIcon={<AddIcon />} disabled={refineCore.formLoading || !name}>
        {t('groups.create')}
      </Button>
    </Box>
  );
}
