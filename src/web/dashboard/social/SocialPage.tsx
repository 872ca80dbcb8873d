import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { FriendRequest } from '../../../contract/social.ts';
import { useSearchParams } from 'react-router';
import { BlockList } from './blocklist/list.tsx';
import { FriendGroupList } from './friendGroups/list.tsx';
import { FriendRequestList } from './friendRequests/list.tsx';
import { FriendList } from './friends/list.tsx';

const tabs = ['friends', 'requests', 'groups', 'blocked'] as const;
type TabName = (typeof tabs)[number];

/** /dashboard/social: friends, requests, groups and the block list, one tab each (kept in ?tab=). */
export function SocialPage() {
  const { t } = useTranslation('social');
  const [params, setParams] = useSearchParams();
  const tab: TabName = (tabs as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabName) : 'friends';
  // The requests waiting for an answer from the player, on their tab; the list follows live changes.
  const { result: pending } = useList<FriendRequest>({ resource: 'friendRequests', pagination: { currentPage: 1, pageSize: 100 } });
  const waiting = pending.data.filter((r) => r.direction === 'INCOMING').length;
  const label = (name: TabName) => (name === 'requests' && waiting > 0 ? t('tabs.requestsWaiting', { count: waiting }) : t(`tabs.${name}`));
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
          <Tab key={name} value={name} label={label(name)} sx={{ minWidth: 0, px: { xs: 1.5, sm: 2 } }} id={`social-tab-${name}`} aria-controls={`social-panel-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`social-panel-${tab}`} aria-labelledby={`social-tab-${tab}`}>
        {tab === 'friends' && <FriendList />}
        {tab === 'requests' && <FriendRequestList />}
        {tab === 'groups' && <FriendGroupList />}
        {tab === 'blocked' && <BlockList />}
      </Box>
    </>
  );
}
