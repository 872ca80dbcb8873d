import { AppBar, Box, Button, Toolbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useAppConfig } from '../app/config.ts';
import { useSession } from '../app/auth.tsx';
import { useLocalePath } from '../app/locale.tsx';
import { Brand } from '../ui/Brand.tsx';

/** The site header: brand, and sign-in buttons or the account actions. */
export function Header() {
  const { t } = useTranslation();
  const session = useSession();
  const config = useAppConfig();
  const to = useLocalePath();
  const navigate = useNavigate();
  return (
    <AppBar position="sticky" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Brand to={to('/')} />
        <Box sx={{ flex: 1 }} />
        {session.status === 'authenticated' ? (
          <>
            <Button component={RouterLink} to={to('/dashboard')} color="inherit">
              {t('nav.dashboard')}
            </Button>
            <Button color="inherit" onClick={() => session.logout(() => navigate(to('/')))}>
              {t('nav.logout')}
            </Button>
          </>
        ) : (
          config.auth.providers.map((p) => (
            <Button key={p.id} variant="contained" onClick={() => void session.signIn()} disabled={session.status === 'loading'}>
              {t('nav.signIn')}
            </Button>
          ))
        )}
      </Toolbar>
    </AppBar>
  );
}
