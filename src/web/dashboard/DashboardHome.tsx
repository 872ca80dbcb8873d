import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { AccountCircle as AccountCircleIcon, EmojiEvents as TrophyIcon, People as PeopleIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';
import { useCurrentUser } from '../app/currentUser.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { GamesList } from './games/list.tsx';
import { SharedGamesList } from './games/sharing/SharedGamesList.tsx';
import { LinkMinecraftCallout } from './profile/LinkMinecraftCallout.tsx';

export function DashboardHome() {
  const { t } = useTranslation('dashboard');
  // The user the shell already loaded (fetched only if not already loaded).
  const me = useCurrentUser();
  const to = useLocalePath();
  if (me.status === 'loading') return <PageLoader />;
  if (me.status === 'error')
    return (
      <Alert severity="error" action={<Button onClick={me.reload}>{t('retry', { ns: 'common' })}</Button>}>
        {t('loadError')}: {me.error.message}
      </Alert>
    );
  return (
    <>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('hello')} <span data-testid="user-name">{me.data.name}</span>
      </Typography>
      {me.data.mcUuid === null && <LinkMinecraftCallout />}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Card sx={{ width: '100%', maxWidth: 360 }}>
          <CardContent>
            <Typography variant="overline" color="text.secondary">
              {t('balance')}
            </Typography>
            <Typography variant="h3" component="p" data-testid="user-balance">
              {t('credits', { count: me.data.balance })}
            </Typography>
          </CardContent>
        </Card>
        {/* The friends and profile pages, also in the account menu: a player looks for them here first. */}
        <Box component="nav" aria-label={t('shortcuts')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button component={RouterLink} to={to('/dashboard/social')} variant="outlined" startIcon={<PeopleIcon />}>
            {t('nav.social', { ns: 'common' })}
          </Button>
          <Button component={RouterLink} to={to('/dashboard/profil')} variant="outlined" startIcon={<AccountCircleIcon />}>
            {t('nav.profile', { ns: 'common' })}
          </Button>
          <Button component={RouterLink} to={to('/dashboard/ranked')} variant="outlined" startIcon={<TrophyIcon />}>
            {t('nav.rankedQueue', { ns: 'common' })}
          </Button>
        </Box>
      </Box>
      <GamesList />
      <SharedGamesList />
    </>
  );
}
