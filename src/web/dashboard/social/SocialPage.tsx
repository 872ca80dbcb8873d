import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, IconButton, Stack, Tab, Tabs, TextField, Tooltip, Typography } from '@mui/material';
import { Block as BlockIcon, Check as CheckIcon, Close as CloseIcon, PersonAdd as PersonAddIcon, PersonRemove as PersonRemoveIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { BlockedUser, Friend, FriendAddResult, FriendRequest } from '../../../contract/social.ts';
import { apiFetch } from '../../app/api.ts';
import { useSubmit } from '../../ui/useSubmit.ts';
import { PagedTable, usePaged } from '../lists.tsx';
import { ActionRow, FALLBACK_NAME, PlayerCell, mcNamePattern, useActions } from './common.tsx';
import { GroupsTab } from './GroupsTab.tsx';

const tabs = ['friends', 'requests', 'groups', 'blocked'] as const;
type TabName = (typeof tabs)[number];

/** /dashboard/social: friends, requests, groups and the block list, one tab each (kept in ?tab=). */
export function SocialPage() {
  const { t } = useTranslation('social');
  const [params, setParams] = useSearchParams();
  const tab: TabName = (tabs as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabName) : 'friends';
  return (
    <>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 2 }}>
        {t('title')}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_, v: TabName) => setParams(v === 'friends' ? {} : { tab: v })}
        variant="scrollable"
        scrollButtons={false}
        aria-label={t('title')}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((name) => (
          <Tab key={name} value={name} label={t(`tabs.${name}`)} sx={{ minWidth: 0, px: { xs: 1.5, sm: 2 } }} id={`social-tab-${name}`} aria-controls={`social-panel-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`social-panel-${tab}`} aria-labelledby={`social-tab-${tab}`}>
        {tab === 'friends' && <FriendsTab />}
        {tab === 'requests' && <RequestsTab />}
        {tab === 'groups' && <GroupsTab />}
        {tab === 'blocked' && <BlockedTab />}
      </Box>
    </>
  );
}

function FriendsTab() {
  const { t } = useTranslation('social');
  const friends = usePaged<Friend>('friends');
  const actions = useActions();
  return (
    <Stack spacing={2}>
      <AddFriendCard onAdded={friends.reload} />
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
                            actions.confirm({
                              title: t('friends.removeTitle'),
                              text: t('friends.removeText', { name: who }),
                              confirm: t('friends.remove'),
                              done: t('friends.removed', { name: who }),
                              run: async () => {
                                await apiFetch(`/v1/friend/${f.id}`, { method: 'DELETE' });
                                friends.reload();
                              },
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
                            actions.confirm({
                              title: t('blocked.blockTitle'),
                              text: t('blocked.blockText', { name: who }),
                              confirm: t('blocked.block'),
                              done: t('blocked.blockedDone', { name: who }),
                              run: async () => {
                                await apiFetch('/v1/blocklist', { method: 'POST', json: { userId: f.id } });
                                friends.reload();
                              },
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
      {actions.nodes}
    </Stack>
  );
}

function AddFriendCard({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation('social');
  const [name, setName] = useState('');
  const { busy, result, submit: run } = useSubmit();
  const invalid = name !== '' && !mcNamePattern.test(name.trim());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const mcName = name.trim();
    if (!mcNamePattern.test(mcName)) return;
    await run(async () => {
      const answer = await apiFetch<FriendAddResult>('/v1/friend/mcname', { method: 'POST', json: { mcName } });
      const who = answer.user.mcName ?? answer.user.name;
      setName('');
      if (answer.status === 'ACCEPTED') onAdded();
      return answer.status === 'ACCEPTED' ? t('add.accepted', { name: who }) : t('add.sent', { name: who });
    }, t('add.failed'));
  };
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
          {t('add.title')}
        </Typography>
        <Box component="form" onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <TextField
            size="small"
            label={t('add.label')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={invalid}
            helperText={invalid ? t('invalidName') : t('add.help')}
            slotProps={{ htmlInput: { maxLength: 16, autoComplete: 'off' } }}
            sx={{ flex: '1 1 220px' }}
          />
          <Button type="submit" variant="contained" startIcon={<PersonAddIcon />} disabled={busy || name.trim() === '' || invalid} sx={{ mt: 0.25 }}>
            {t('add.submit')}
          </Button>
        </Box>
        {result && (
          <Alert severity={result.severity} sx={{ mt: 1.5 }} data-testid="add-friend-result">
            {result.text}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function RequestsTab() {
  const { t } = useTranslation('social');
  const requests = usePaged<FriendRequest>('friendRequests');
  const actions = useActions();
  const answer = (r: FriendRequest, accept: boolean, done: string) =>
    actions.run(async () => {
      await apiFetch('/v1/friend/request', { method: 'PUT', json: { requestId: r.id, accept } });
      requests.reload();
    }, done);
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
                        <IconButton color="success" aria-label={t('requests.acceptOf', { name: who })} onClick={() => void answer(r, true, t('requests.accepted', { name: who }))}>
                          <CheckIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('requests.decline')}>
                        <IconButton color="error" aria-label={t('requests.declineOf', { name: who })} onClick={() => void answer(r, false, t('requests.declined', { name: who }))}>
                          <CloseIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  ) : (
                    <Tooltip title={t('requests.cancel')}>
                      <IconButton aria-label={t('requests.cancelOf', { name: who })} onClick={() => void answer(r, false, t('requests.cancelled', { name: who }))}>
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
      {actions.nodes}
    </Card>
  );
}

function BlockedTab() {
  const { t } = useTranslation('social');
  const blocked = usePaged<BlockedUser>('blocklist');
  const actions = useActions();
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
                      void actions.run(async () => {
                        await apiFetch(`/v1/blocklist/${b.blockId}`, { method: 'DELETE' });
                        blocked.reload();
                      }, t('blocked.unblocked', { name: who }))
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
      {actions.nodes}
    </Card>
  );
}
