import { useState } from 'react';
import { Button, Divider, Stack, Typography } from '@mui/material';
import { DeleteForever as DeleteIcon, MoreTime as ExtendIcon, Stop as StopIcon } from '@mui/icons-material';
import { CanAccess, useInvalidate, useShow } from '@refinedev/core';
import { RefreshButton, Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { StaffGame } from '../../../contract/games.ts';
import type { GameStatus } from '../../../contract/values.ts';
import type { ApiError } from '../../app/api.ts';
import { ErrorAlert, Fact, Facts } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { ListLink, PageTitle, ShowLink } from '../lists.tsx';
import { DeleteDialog, ExtendDialog, StopDialog } from './GameActions.tsx';
import { GameBackups } from './GameBackups.tsx';
import { GameStatusChip } from './GameStatusChip.tsx';

/** The statuses a stop applies to, as for the owner's own stop button. */
const STOPPABLE: readonly GameStatus[] = ['STARTING', 'RUNNING', 'CRASHED', 'SLEEPING'];

/** One player's server: what it runs, its owner and paid period, its backups; staff stop it, give it free days or restore a backup. */
export function GameShow() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const { query, result: game } = useShow<StaffGame, ApiError>({ resource: 'staffGames' });
  const invalidate = useInvalidate();
  const [open, setOpen] = useState<'stop' | 'extend' | 'delete' | null>(null);
  const refresh = () => {
    if (game) void invalidate({ resource: 'staffGames', invalidates: ['list', 'detail'], id: game.id });
    // The backups are not on staff's event stream: they come again with the page's other data.
    void invalidate({ resource: 'staffGameBackups', invalidates: ['list'] });
    void invalidate({ resource: 'audit', invalidates: ['list'] });
  };
  const expired = !!game && (game.status === 'EXPIRED' || !!game.expiredAt || !!game.worldDeletedAt);
  return (
    <Show
      resource="staffGames"
      isLoading={query.isLoading}
      breadcrumb={false}
      title={<PageTitle>{game?.name ?? t('staffGames.titles.show')}</PageTitle>}
      headerButtons={({ refreshButtonProps }) => (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {game && (
            <CanAccess resource="staffGames" action="stop">
              <Button variant="outlined" color="error" startIcon={<StopIcon />} disabled={!STOPPABLE.includes(game.status)} onClick={() => setOpen('stop')}>
                {t('staffGames.stop.open')}
              </Button>
            </CanAccess>
          )}
          {game && (
            <CanAccess resource="staffGames" action="extend">
              <Button variant="outlined" startIcon={<ExtendIcon />} disabled={expired} onClick={() => setOpen('extend')}>
                {t('staffGames.extend.open')}
              </Button>
            </CanAccess>
          )}
          {game && (
            <CanAccess resource="staffGames" action="delete">
              <Button variant="outlined" color="error" startIcon={<DeleteIcon />} disabled={!!game.deletedAt} onClick={() => setOpen('delete')}>
                {t('staffGames.delete.open')}
              </Button>
            </CanAccess>
          )}
          <RefreshButton {...refreshButtonProps} onClick={refresh} />
        </Stack>
      )}
    >
      <ErrorAlert error={query.error} />
      {game && (
        <>
          <Facts>
            <Fact label={t('staffGames.fields.status')}>
              <GameStatusChip status={game.status} />
              {game.statusReason && (
                <Typography variant="caption" color="text.secondary" component="p">
                  {game.statusReason}
                </Typography>
              )}
            </Fact>
            <Fact label={t('staffGames.fields.owner')}>
              <ShowLink resource="users" id={game.ownerId}>
                {game.ownerName}
              </ShowLink>
            </Fact>
            <Fact label={t('staffGames.fields.definition')}>{game.definitionName[lang]}</Fact>
            <Fact label={t('staffGames.fields.package')}>{t('staffGames.packageLine', { name: game.packageName[lang], ram: game.ramMb, players: game.maxPlayers })}</Fact>
            <Fact label={t('staffGames.fields.version')}>{game.version}</Fact>
          </Facts>
          <Divider sx={{ mb: 3 }} />
          <Facts>
            <Fact label={t('staffGames.fields.periodEnd')}>
              <span data-testid="game-period-end">{formatDate(game.periodEnd, lang)}</span>
            </Fact>
            <Fact label={t('staffGames.fields.autoRenew')}>{game.autoRenew ? t('yes') : t('no')}</Fact>
            <Fact label={t('staffGames.fields.desiredState')}>{t(`staffGames.desired.${game.desiredState}`)}</Fact>
            <Fact label={t('staffGames.fields.createdAt')}>{formatDate(game.createdAt, lang)}</Fact>
            {game.expiredAt && <Fact label={t('staffGames.fields.expiredAt')}>{formatDate(game.expiredAt, lang)}</Fact>}
            {game.deletedAt && (
              <Fact label={t('staffGames.delete.open')}>
                <span data-testid="game-deleted">{t('staffGames.delete.deleted', { date: formatDate(game.deletedAt, lang) })}</span>
              </Fact>
            )}
          </Facts>
          <ListLink resource="audit" query={{ entity: 'game', entityId: game.id }}>
            {t('staffGames.audit')}
          </ListLink>
          <GameBackups game={game} onRestored={refresh} />
          {open === 'stop' && <StopDialog game={game} onClose={() => setOpen(null)} onDone={refresh} />}
          {open === 'delete' && <DeleteDialog game={game} onClose={() => setOpen(null)} onDone={refresh} />}
          {open === 'extend' && <ExtendDialog game={game} onClose={() => setOpen(null)} onDone={refresh} />}
        </>
      )}
    </Show>
  );
}
