import { useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, LinearProgress, ListItemText, ListSubheader, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { DeleteOutline as DeleteOutlineIcon, Group as GroupIcon, Person as PersonIcon } from '@mui/icons-material';
import { useCustom, useCustomMutation, useList, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Friend, FriendGroup } from '../../../../contract/social.ts';
import { gameRoles, type GameAccessGrant, type GameAccessList, type GameRole } from '../../../../contract/sharing.ts';
import { newIdempotencyKey, type ApiError } from '../../../app/api.ts';
import { useLocalePath } from '../../../app/locale.tsx';
import { ActionIcon } from '../../../ui/ActionIcon.tsx';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction, type RunAction } from '../../../ui/useConfirmedAction.tsx';

const quiet = { successNotification: false, errorNotification: false } as const;

/**
 * The Sharing tab (the owner's only): who the game is shared with, each friend or friend group with a
 * role to change in place or to remove after a confirmation, and a form to share it with one more.
 */
export default function SharingCard({ gameId }: { gameId: string }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const accessUrl = `/v1/game/${encodeURIComponent(gameId)}/access`;
  const { query } = useCustom<GameAccessList & BaseRecord, ApiError>({ url: accessUrl, method: 'get', queryOptions: { placeholderData: (previous) => previous } });
  const grants = query.data?.data.data;
  const { run, busy, result, dialog } = useConfirmedAction({ snackbar: true });
  const reload = () => void query.refetch();

  return (
    <Stack spacing={3}>
      {dialog}
      <ShareForm gameId={gameId} grants={grants ?? []} onShared={reload} />
      <Card data-testid="sharing-grants">
        <CardHeader title={t('sharing.list.title')} subheader={t('sharing.list.help')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} subheaderTypographyProps={{ variant: 'body2' }} />
        <CardContent sx={{ pt: 0 }}>
          {query.isPending && <LinearProgress aria-label={t('sharing.list.loading')} />}
          {query.isError && !grants && <LoadError message={`${t('sharing.list.loadError')} ${errorMessage(query.error)}`} onRetry={reload} />}
          {grants?.length === 0 && (
            <EmptyState title={t('sharing.list.empty')}>
              <Typography color="text.secondary">{t('sharing.list.emptyText')}</Typography>
            </EmptyState>
          )}
          {grants && grants.length > 0 && (
            <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label={t('sharing.list.title')}>
              {grants.map((grant) => (
                <GrantRow key={grant.id} gameId={gameId} grant={grant} run={run} busy={busy} onChanged={reload} />
              ))}
            </Box>
          )}
          {result?.severity === 'error' && <ActionAlert result={result} />}
        </CardContent>
      </Card>
    </Stack>
  );
}

/** The name a grant is shown by: the friend's, or the group's. */
const nameOf = (grant: GameAccessGrant) => grant.friend?.name ?? grant.group?.name ?? '';

/** One friend or group the game is shared with: its role, changed at once, and a remove button that asks first. */
function GrantRow({ gameId, grant, run, busy, onChanged }: { gameId: string; grant: GameAccessGrant; run: RunAction; busy: boolean; onChanged: () => void }) {
  const { t } = useTranslation('games');
  const { mutateAsync: call } = useCustomMutation<GameAccessGrant, ApiError>();
  const url = `/v1/game/${encodeURIComponent(gameId)}/access/${encodeURIComponent(grant.id)}`;
  const name = nameOf(grant);
  const change = (role: GameRole) =>
    void run({
      action: async () => {
        await call({ url, method: 'put', values: { role }, ...quiet });
        onChanged();
      },
      success: t('sharing.list.changed', { name, role: t(`sharing.roles.${role}.name`) }),
      failure: t('sharing.list.failed'),
    });
  const remove = () =>
    void run({
      confirm: { title: t('sharing.list.removeTitle'), text: t('sharing.list.removeText', { name }), confirm: t('sharing.list.remove'), danger: true },
      action: async () => {
        await call({ url, method: 'delete', values: {}, ...quiet });
        onChanged();
      },
      success: t('sharing.list.removed', { name }),
      failure: t('sharing.list.failed'),
    });
  return (
    <Box
      component="li"
      data-testid={`grant-${name}`}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flex: '1 1 180px', minWidth: 0 }}>
        {grant.group ? <GroupIcon color="action" /> : <PersonIcon color="action" />}
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {grant.group ? t('sharing.list.group', { count: grant.group.members }) : t('sharing.list.friend')}
          </Typography>
        </Box>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto' }}>
        <TextField
          select
          size="small"
          label={t('sharing.form.role')}
          value={grant.role}
          disabled={busy}
          onChange={(e) => e.target.value !== grant.role && change(e.target.value as GameRole)}
          slotProps={{ htmlInput: { 'aria-label': t('sharing.list.roleOf', { name }) } }}
          sx={{ width: 150 }}
        >
          {gameRoles.map((role) => (
            <MenuItem key={role} value={role}>
              {t(`sharing.roles.${role}.name`)}
            </MenuItem>
          ))}
        </TextField>
        <ActionIcon title={t('sharing.list.remove')} aria-label={t('sharing.list.removeOf', { name })} disabled={busy} onClick={remove}>
          <DeleteOutlineIcon />
        </ActionIcon>
      </Box>
    </Box>
  );
}

/** Share with one of your friends or friend groups, with a role whose powers are said under each choice. */
function ShareForm({ gameId, grants, onShared }: { gameId: string; grants: GameAccessGrant[]; onShared: () => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const friends = useList<Friend, ApiError>({ resource: 'friends', pagination: { pageSize: 100 } });
  const groups = useList<FriendGroup, ApiError>({ resource: 'friendGroups', pagination: { pageSize: 100 } });
  const { mutateAsync: call } = useCustomMutation<GameAccessGrant, ApiError>();
  const { run, busy, result, dialog } = useConfirmedAction();
  const [target, setTarget] = useState('');
  const [role, setRole] = useState<GameRole>('VIEWER');

  // Those already shared with are not offered again.
  const groupChoices = groups.result.data.filter((g) => !grants.some((grant) => grant.group?.id === g.id));
  const friendChoices = friends.result.data.filter((f) => !grants.some((grant) => grant.friend?.id === f.id));
  const [kind, id] = target.split(':') as ['group' | 'friend' | '', string | undefined];
  const label = kind === 'group' ? groups.result.data.find((g) => g.id === id)?.name : friends.result.data.find((f) => f.id === id)?.name;
  const loading = friends.query.isPending || groups.query.isPending;
  const failed = friends.query.error ?? groups.query.error;
  const nobody = !loading && !failed && friends.result.data.length === 0 && groups.result.data.length === 0;

  const share = () => {
    if (!id || !label) return;
    void run({
      action: async () => {
        await call({
          url: `/v1/game/${encodeURIComponent(gameId)}/access`,
          method: 'post',
          values: kind === 'group' ? { groupId: id, role } : { friendId: id, role },
          meta: { idempotencyKey: newIdempotencyKey() },
          ...quiet,
        });
        setTarget('');
        onShared();
      },
      success: t('sharing.form.done', { name: label, role: t(`sharing.roles.${role}.name`) }),
      failure: t('sharing.form.failed'),
    });
  };

  return (
    <Card data-testid="sharing-form">
      {dialog}
      <CardHeader title={t('sharing.form.title')} subheader={t('sharing.form.help')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} subheaderTypographyProps={{ variant: 'body2' }} />
      <CardContent sx={{ pt: 0 }}>
        {loading && <LinearProgress />}
        {failed && (
          <LoadError
            message={`${t('sharing.form.loadError')} ${errorMessage(failed)}`}
            onRetry={() => {
              void friends.query.refetch();
              void groups.query.refetch();
            }}
          />
        )}
        {nobody && (
          <EmptyState title={t('sharing.form.noFriends')}>
            <Button component={RouterLink} to={to('/dashboard/social')} variant="outlined">
              {t('sharing.form.toSocial')}
            </Button>
          </EmptyState>
        )}
        {!loading && !failed && !nobody && (
          <Box component="form" onSubmit={(e) => (e.preventDefault(), share())} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
            <TextField select size="small" label={t('sharing.form.target')} value={target} onChange={(e) => setTarget(e.target.value)} sx={{ flex: '1 1 220px', minWidth: 0 }}>
              {groupChoices.length > 0 && <ListSubheader>{t('sharing.form.groups')}</ListSubheader>}
              {groupChoices.map((g) => (
                <MenuItem key={g.id} value={`group:${g.id}`}>
                  {t('sharing.form.groupOption', { name: g.name, count: g.memberCount })}
                </MenuItem>
              ))}
              {friendChoices.length > 0 && <ListSubheader>{t('sharing.form.friends')}</ListSubheader>}
              {friendChoices.map((f) => (
                <MenuItem key={f.id} value={`friend:${f.id}`}>
                  {f.mcName ? `${f.name} (${f.mcName})` : f.name}
                </MenuItem>
              ))}
              {groupChoices.length + friendChoices.length === 0 && (
                <MenuItem value="" disabled>
                  {t('sharing.form.allShared')}
                </MenuItem>
              )}
            </TextField>
            <TextField
              select
              size="small"
              label={t('sharing.form.role')}
              value={role}
              onChange={(e) => setRole(e.target.value as GameRole)}
              helperText={t(`sharing.roles.${role}.help`)}
              slotProps={{ select: { renderValue: (value) => t(`sharing.roles.${value as GameRole}.name`) } }}
              sx={{ flex: '1 1 220px', minWidth: 0 }}
            >
              {gameRoles.map((r) => (
                <MenuItem key={r} value={r} sx={{ whiteSpace: 'normal' }}>
                  <ListItemText primary={t(`sharing.roles.${r}.name`)} secondary={t(`sharing.roles.${r}.help`)} />
                </MenuItem>
              ))}
            </TextField>
            <Button type="submit" variant="contained" disabled={busy || !label} sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
              {t('sharing.form.share')}
            </Button>
          </Box>
        )}
        <ActionAlert result={result} testId="sharing-result" />
      </CardContent>
    </Card>
  );
}
