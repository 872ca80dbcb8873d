import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, IconButton, Stack, Table, TableBody, TableContainer, Tooltip, Typography } from '@mui/material';
import { PersonRemove as PersonRemoveIcon, Upload as UploadIcon } from '@mui/icons-material';
import { useCustomMutation, useInvalidate, useList, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Friend, FriendGroupDetail, FriendGroupMember } from '../../../../contract/social.ts';
import { errorText, type ApiError } from '../../../app/api.ts';
import { FALLBACK_NAME } from '../../../ui/McHead.tsx';
import type { RunAction } from '../../../ui/useConfirmedAction.tsx';
import { ListPagination } from '../../lists.tsx';
import { ActionRow, PlayerCell } from '../PlayerRow.tsx';
import { AddFriendMember } from './AddFriendMember.tsx';
import { AddNameMember } from './AddNameMember.tsx';
import { ImportDialog } from './ImportDialog.tsx';

const MEMBERS_PAGE = 10;

/** One group: add a friend, a name or a pasted list, and its members (paged here, the API sends them all). */
export function GroupShow({ id, run }: { id: string; run: RunAction }) {
  const { t } = useTranslation('social');
  const { query, result: group } = useOne<FriendGroupDetail, ApiError>({ resource: 'friendGroups', id });
  // Groups hold friends: the choice is among them (the first hundred, the API's largest page), and their heads come from here.
  const { result: friends, query: friendsQuery } = useList<Friend, ApiError>({ resource: 'friends', pagination: { currentPage: 1, pageSize: 100 } });
  const heads = new Map(friends.data.map((f) => [f.id, f.mcUuid]));
  const invalidate = useInvalidate();
  // The group's members and its count in the list.
  const changed = () => invalidate({ resource: 'friendGroups', invalidates: ['list', 'detail'], id });
  const { mutateAsync } = useCustomMutation();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(MEMBERS_PAGE);
  const [importing, setImporting] = useState(false);
  if (query.isError && !group)
    return (
      <Alert severity="error" action={<Button onClick={() => void query.refetch()}>{t('retry', { ns: 'common' })}</Button>}>
        {t('loadError')}: {errorText(query.error)}
      </Alert>
    );
  if (!group)
    return (
      <Card>
        <CardContent sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress size={28} aria-label={t('loading', { ns: 'common' })} />
        </CardContent>
      </Card>
    );
  const members = group.members;
  const lastPage = Math.max(0, Math.ceil(members.length / size) - 1);
  const shownPage = Math.min(page, lastPage);
  const removeMember = (m: FriendGroupMember) => {
    const who = m.name ?? m.mcName ?? FALLBACK_NAME;
    // Friends leave by id, names by name: the API has a call for each.
    const [url, values] = m.userId ? [`/v1/friend/group/${id}/member`, { userId: m.userId }] : [`/v1/friend/group/${id}/member/pseudo`, { mcName: m.mcName }];
    void run({
      confirm: { title: t('members.removeTitle'), text: t('members.removeText', { name: who, group: group.name }), confirm: t('members.remove') },
      action: async () => {
        await mutateAsync({ url, method: 'delete', values });
        await changed();
      },
      success: t('members.removed', { name: who }),
      failure: t('members.removeFailed'),
    });
  };
  return (
    <Card data-testid="group-detail">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5, overflowWrap: 'anywhere' }}>
          {t('members.title', { name: group.name })}
        </Typography>
        <Stack spacing={1.5} sx={{ mb: 2 }}>
          <AddFriendMember
            groupId={id}
            friends={friends.data}
            friendsError={friendsQuery.isError ? errorText(friendsQuery.error) : null}
            loaded={friendsQuery.isSuccess}
            members={members}
            run={run}
            onAdded={changed}
          />
          <AddNameMember groupId={id} run={run} onAdded={changed} />
          <Box>
            <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
              {t('import.open')}
            </Button>
          </Box>
        </Stack>
        {members.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            {t('members.empty')}
          </Typography>
        ) : (
          <>
            <TableContainer>
              <Table size="small" aria-label={t('members.title', { name: group.name })}>
                <TableBody>
                  {members.slice(shownPage * size, shownPage * size + size).map((m) => (
                    <ActionRow
                      key={m.id}
                      testId={`member-${m.name ?? m.mcName}`}
                      actions={
                        <Tooltip title={t('members.remove')}>
                          <IconButton aria-label={t('members.removeOf', { name: m.name ?? m.mcName ?? FALLBACK_NAME })} onClick={() => removeMember(m)}>
                            <PersonRemoveIcon />
                          </IconButton>
                        </Tooltip>
                      }
                    >
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                        <PlayerCell name={m.name} mcUuid={m.userId ? (heads.get(m.userId) ?? null) : null} mcName={m.mcName} />
                        {!m.userId && <Chip size="small" variant="outlined" label={t('members.byName')} />}
                      </Box>
                    </ActionRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <ListPagination
              count={members.length}
              page={shownPage}
              rowsPerPage={size}
              onPageChange={(_, p) => setPage(p)}
              onRowsPerPageChange={(e) => {
                setSize(Number(e.target.value));
                setPage(0);
              }}
            />
          </>
        )}
      </CardContent>
      <ImportDialog open={importing} groupId={id} onClose={() => setImporting(false)} onImported={changed} />
    </Card>
  );
}
