import { useState } from 'react';
import { Box, Button, Card, CardContent, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import { Delete as DeleteIcon, Edit as EditIcon, Group as GroupIcon } from '@mui/icons-material';
import { useDelete } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { FriendGroup } from '../../../../contract/social.ts';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { PagedTable, usePaged } from '../../lists.tsx';
import { ActionRow } from '../PlayerRow.tsx';
import { CreateGroupForm } from './CreateGroupForm.tsx';
import { RenameDialog } from './RenameDialog.tsx';
import { GroupShow } from './show.tsx';

/** Groups by name on the left (or on top on a phone), the open group's members beside them. */
export function FriendGroupList() {
  const { t } = useTranslation('social');
  const groups = usePaged<FriendGroup>('friendGroups');
  const [openId, setOpenId] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<FriendGroup | null>(null);
  // One confirmation and one message for the whole tab, the open group's actions included.
  const { run, dialog } = useConfirmedAction({ snackbar: true });
  const { mutateAsync: remove } = useDelete();
  const removeGroup = (g: FriendGroup) =>
    void run({
      confirm: { title: t('groups.deleteTitle'), text: t('groups.deleteText', { name: g.name }), confirm: t('groups.delete') },
      action: async () => {
        await remove({ resource: 'friendGroups', id: g.id });
        if (openId === g.id) setOpenId(null);
      },
      success: t('groups.deleted', { name: g.name }),
      failure: t('groups.deleteFailed'),
    });
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, alignItems: 'start' }}>
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
            {t('groups.title')}
          </Typography>
          <CreateGroupForm run={run} onCreated={(g) => setOpenId(g.id)} />
          <PagedTable
            paged={groups}
            label={t('groups.title')}
            empty={t('groups.empty')}
            row={(g) => (
              <ActionRow
                key={g.id}
                testId={`group-${g.name}`}
                actions={
                  <>
                    <Tooltip title={t('groups.rename')}>
                      <IconButton aria-label={t('groups.renameOf', { name: g.name })} onClick={() => setRenaming(g)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('groups.delete')}>
                      <IconButton color="error" aria-label={t('groups.deleteOf', { name: g.name })} onClick={() => removeGroup(g)}>
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                }
              >
                <GroupButton group={g} open={openId === g.id} onOpen={() => setOpenId(g.id)} />
              </ActionRow>
            )}
          />
        </CardContent>
      </Card>
      {openId ? (
        <GroupShow key={openId} id={openId} run={run} />
      ) : (
        <Card sx={{ display: { xs: 'none', md: 'block' } }}>
          <CardContent>
            <Typography color="text.secondary">{t('groups.pick')}</Typography>
          </CardContent>
        </Card>
      )}
      <RenameDialog group={renaming} run={run} onClose={() => setRenaming(null)} />
      {dialog}
    </Box>
  );
}

/** A group's name and member count; pressed while its members are shown. */
function GroupButton({ group, open, onOpen }: { group: FriendGroup; open: boolean; onOpen: () => void }) {
  const { t } = useTranslation('social');
  return (
    <Button
      onClick={onOpen}
      startIcon={<GroupIcon />}
      variant={open ? 'contained' : 'text'}
      color={open ? 'primary' : 'inherit'}
      aria-pressed={open}
      sx={{ justifyContent: 'flex-start', textAlign: 'left', maxWidth: '100%' }}
    >
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {group.name}
      </Box>
      <Chip
        size="small"
        label={group.memberCount}
        aria-label={t('groups.memberCount', { count: group.memberCount })}
        sx={{ ml: 1, flexShrink: 0, color: 'inherit', bgcolor: open ? 'rgba(255,255,255,0.25)' : 'action.selected' }}
      />
    </Button>
  );
}
