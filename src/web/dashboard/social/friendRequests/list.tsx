import { Box, Card, CardContent, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import { Check as CheckIcon, Close as CloseIcon } from '@mui/icons-material';
import { useCustomMutation, useInvalidate } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { FriendRequest } from '../../../../contract/social.ts';
import { FALLBACK_NAME } from '../../../ui/McHead.tsx';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { PagedTable, usePaged } from '../../lists.tsx';
import { ActionRow, PlayerCell } from '../PlayerRow.tsx';

/** Pending requests, both ways: accept or decline theirs, withdraw yours. */
export function FriendRequestList() {
  const { t } = useTranslation('social');
  const requests = usePaged<FriendRequest>('friendRequests');
  const { run, dialog } = useConfirmedAction({ snackbar: true });
  const { mutateAsync } = useCustomMutation();
  const invalidate = useInvalidate();
  // One call answers all three ways; an accepted request is a new friend.
  const answer = (r: FriendRequest, accept: boolean, success: string) =>
    void run({
      action: async () => {
        await mutateAsync({ url: '/v1/friend/request', method: 'put', values: { requestId: r.id, accept } });
        await Promise.all([invalidate({ resource: 'friendRequests', invalidates: ['list'] }), accept && invalidate({ resource: 'friends', invalidates: ['list'] })]);
      },
      success,
      failure: t('requests.answerFailed'),
    });
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
          {t('requests.title')}
        </Typography>
        <PagedTable
          paged={requests}
          label={t('requests.title')}
          empty={t('requests.empty')}
          row={(r) => {
            const who = r.user.mcName ?? r.user.name ?? FALLBACK_NAME;
            const incoming = r.direction === 'INCOMING';
            return (
              <ActionRow
                key={r.id}
                testId={`request-${r.user.name}`}
                actions={
                  incoming ? (
                    <>
                      <Tooltip title={t('requests.accept')}>
                        <IconButton color="success" aria-label={t('requests.acceptOf', { name: who })} onClick={() => answer(r, true, t('requests.accepted', { name: who }))}>
                          <CheckIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('requests.decline')}>
                        <IconButton color="error" aria-label={t('requests.declineOf', { name: who })} onClick={() => answer(r, false, t('requests.declined', { name: who }))}>
                          <CloseIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  ) : (
                    <Tooltip title={t('requests.cancel')}>
                      <IconButton aria-label={t('requests.cancelOf', { name: who })} onClick={() => answer(r, false, t('requests.cancelled', { name: who }))}>
                        <CloseIcon />
                      </IconButton>
                    </Tooltip>
                  )
                }
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <PlayerCell name={r.user.name} mcUuid={r.user.mcUuid} mcName={r.user.mcName} />
                  <Chip size="small" color={incoming ? 'primary' : 'default'} variant="outlined" label={t(incoming ? 'requests.incoming' : 'requests.outgoing')} />
                </Box>
              </ActionRow>
            );
          }}
        />
      </CardContent>
      {dialog}
    </Card>
  );
}
