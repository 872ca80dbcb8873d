import { Card, CardContent, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { Block as BlockIcon, PersonRemove as PersonRemoveIcon } from '@mui/icons-material';
import { useCreate, useDelete, useInvalidate } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Friend } from '../../../../contract/social.ts';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { PagedTable, usePaged } from '../../lists.tsx';
import { ActionRow, PlayerCell } from '../PlayerRow.tsx';
import { AddFriendCard } from './AddFriendCard.tsx';
import { FindPlayerCard } from './FindPlayerCard.tsx';

/** The friends tab: send a request by BlockHost or Minecraft name, then the friends, each with remove and block. */
export function FriendList() {
  const { t } = useTranslation('social');
  const friends = usePaged<Friend>('friends');
  const { run, dialog } = useConfirmedAction({ snackbar: true });
  const { mutateAsync: remove } = useDelete();
  const { mutateAsync: block } = useCreate();
  const invalidate = useInvalidate();
  // A friend removed or blocked also leaves the groups (and their counts).
  const groupsChanged = () => invalidate({ resource: 'friendGroups', invalidates: ['resourceAll'] });
  return (
    <Stack spacing={2}>
      <FindPlayerCard />
      <AddFriendCard />
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            {t('friends.title')}
          </Typography>
          <PagedTable
            paged={friends}
            label={t('friends.title')}
            empty={t('friends.empty')}
            row={(f) => {
              const who = f.mcName ?? f.name;
              return (
                <ActionRow
                  key={f.id}
                  testId={`friend-${f.name}`}
                  actions={
                    <>
                      <Tooltip title={t('friends.remove')}>
                        <IconButton
                          aria-label={t('friends.removeOf', { name: who })}
                          onClick={() =>
                            void run({
                              confirm: { title: t('friends.removeTitle'), text: t('friends.removeText', { name: who }), confirm: t('friends.remove') },
                              action: async () => {
                                await remove({ resource: 'friends', id: f.id });
                                await groupsChanged();
                              },
                              success: t('friends.removed', { name: who }),
                              failure: t('friends.removeFailed'),
                            })
                          }
                        >
                          <PersonRemoveIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('blocked.block')}>
                        <IconButton
                          color="error"
                          aria-label={t('blocked.blockOf', { name: who })}
                          onClick={() =>
                            void run({
                              confirm: { title: t('blocked.blockTitle'), text: t('blocked.blockText', { name: who }), confirm: t('blocked.block') },
                              action: async () => {
                                await block({ resource: 'blocklist', values: { userId: f.id } });
                                await Promise.all([invalidate({ resource: 'friends', invalidates: ['list'] }), groupsChanged()]);
                              },
                              success: t('blocked.blockedDone', { name: who }),
                              failure: t('blocked.blockFailed'),
                            })
                          }
                        >
                          <BlockIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  }
                >
                  <PlayerCell name={f.name} mcUuid={f.mcUuid} mcName={f.mcName} />
                </ActionRow>
              );
            }}
          />
        </CardContent>
      </Card>
      {dialog}
    </Stack>
  );
}
