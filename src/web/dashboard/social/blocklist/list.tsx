import { Button, Card, CardContent, Typography } from '@mui/material';
import { useDelete } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { BlockedUser } from '../../../../contract/social.ts';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { PagedTable, usePaged } from '../../lists.tsx';
import { ActionRow, PlayerCell } from '../PlayerRow.tsx';

/** The players blocked, each with a button to unblock (asked for no confirmation: it is undone by blocking again). */
export function BlockList() {
  const { t } = useTranslation('social');
  const blocked = usePaged<BlockedUser>('blocklist');
  const { run, dialog } = useConfirmedAction({ snackbar: true });
  const { mutateAsync: unblock } = useDelete();
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
          {t('blocked.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('blocked.help')}
        </Typography>
        <PagedTable
          paged={blocked}
          label={t('blocked.title')}
          empty={t('blocked.empty')}
          row={(b) => {
            const who = b.mcName ?? b.name;
            return (
              <ActionRow
                key={b.blockId}
                testId={`blocked-${b.name}`}
                actions={
                  <Button
                    size="small"
                    onClick={() =>
                      void run({
                        action: () => unblock({ resource: 'blocklist', id: b.blockId }),
                        success: t('blocked.unblocked', { name: who }),
                        failure: t('blocked.unblockFailed'),
                      })
                    }
                  >
                    {t('blocked.unblock')}
                  </Button>
                }
              >
                <PlayerCell name={b.name} mcUuid={b.mcUuid} mcName={b.mcName} />
              </ActionRow>
            );
          }}
        />
      </CardContent>
      {dialog}
    </Card>
  );
}
