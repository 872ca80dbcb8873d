import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FriendGroup } from '../../../../contract/social.ts';
import type { RunAction } from '../../../ui/useConfirmedAction.tsx';
import { GroupNameInput, type GroupNameValues } from './GroupNameInput.tsx';

/** Renames `group` (null: closed); it stays open on a refusal, with the API's word under the name. */
export function RenameDialog({ group, run, onClose }: { group: FriendGroup | null; run: RunAction; onClose: () => void }) {
  return (
    <Dialog open={group !== null} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="rename-title">
      {group && <RenameForm key={group.id} group={group} run={run} onClose={onClose} />}
    </Dialog>
  );
}

function RenameForm({ group, run, onClose }: { group: FriendGroup; run: RunAction; onClose: () => void }) {
  const { t } = useTranslation('social');
  const { control, handleSubmit, watch, refineCore } = useForm<FriendGroup, HttpError, GroupNameValues>({
    defaultValues: { name: group.name },
    // The row already has the name: no need to read the group again.
    refineCoreProps: { resource: 'friendGroups', action: 'edit', id: group.id, redirect: false, queryOptions: { enabled: false } },
  });
  const name = watch('name').trim();
  const submit = handleSubmit(async (values) => {
    const done = await run({ action: () => refineCore.onFinish({ name: values.name.trim() }), success: t('groups.renamed'), failure: t('groups.renameFailed') });
    if (done) onClose();
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <DialogTitle id="rename-title">{t('groups.renameTitle')}</DialogTitle>
      <DialogContent>
        <GroupNameInput control={control} label={t('groups.name')} autoFocus sx={{ mt: 1, width: '100%' }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="submit" variant="contained" disabled={refineCore.formLoading || !name || name === group.name}>
          {t('groups.rename')}
        </Button>
      </DialogActions>
    </form>
  );
}
