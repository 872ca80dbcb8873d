import { lazy, Suspense, useState } from 'react';
import { AppBar, Box, Button, IconButton, Toolbar } from '@mui/material';
import { Menu as MenuIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { useBarePath, useLocalePath } from '../app/locale.tsx';
import { Brand } from '../ui/Brand.tsx';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { navItems } from './navItems.ts';
import { SignInButtons } from './SignInButtons.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useNearTop } from './useNearTop.ts';

// Menus and the drawer load when needed, so the public pages stay light.
const SignedInActions = lazy(() => import('./SignedInActions.tsx'));
const NavDrawer = lazy(() => import('./NavDrawer.tsx'));

/**
 * The header of every page. On / it lies over the hero and stays transparent while the page is
 * scrolled under 50 px; elsewhere a spacer keeps the page below it.
 */
export function Header() {
  const { t } = useTranslation();
  const session = useSession();
  const to = useLocalePath();
  const here = useBarePath();
  const nearTop = useNearTop();
  const overHero = here === '/';
  const transparent = overHero && nearTop;
  // The drawer is open for the path it was opened on: any navigation closes it.
  const [drawerPath, setDrawerPath] = useState<string | null>(null);
  // Mounted from the first opening on, so it can animate its closing.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const openDrawer = () => {
    setDrawerUsed(true);
    setDrawerPath(here);
  };
  const signedIn = session.status === 'authenticated';
  return (
    <>
      <AppBar
        position="fixed"
        elevation={transparent ? 0 : 1}
        color="default"
        data-testid="site-header"
        data-transparent={transparent}
        sx={{
          bgcolor: transparent ? 'transparent' : 'background.paper',
          color: transparent ? '#fff' : 'text.primary',
          backgroundImage: 'none',
          boxShadow: transparent ? 'none' : undefined,
          transition: 'background-color .2s, color .2s',
        }}
      >
        <Toolbar sx={{ gap: { xs: 0.5, sm: 1 } }}>
          <IconButton color="inherit" edge="start" onClick={openDrawer} aria-label={t('nav.openMenu')} sx={{ display: { md: 'none' } }} data-testid="drawer-button">
            <MenuIcon />
          </IconButton>
          <Brand to={to('/')} color={transparent ? '#fff' : undefined} compact />
          <Box component="nav" aria-label={t('nav.label')} sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, ml: 3 }}>
            {navItems.map((item) =>
              item.path ? (
                <Button
                  key={item.key}
                  component={RouterLink}
                  to={to(item.path)}
                  color="inherit"
                  aria-current={here === item.path ? 'page' : undefined}
                  sx={{ fontWeight: here === item.path ? 800 : 600 }}
                >
                  {t(item.key)}
                </Button>
              ) : (
                // A page to come: it says so, as the phone's drawer does, rather than looking broken.
                <Button key={item.key} disabled sx={{ color: 'inherit', '&.Mui-disabled': { color: 'inherit', opacity: 0.75 } }} data-testid="nav-soon">
                  {t(item.key)}
                  <Box component="span" sx={{ ml: 0.75, px: 0.75, border: 1, borderRadius: 1, fontSize: '0.7rem', fontWeight: 700, lineHeight: 1.6, textTransform: 'none' }}>
                    {t('nav.soon')}
                  </Box>
                </Button>
              ),
            )}
          </Box>
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
          <ThemeToggle />
          {signedIn ? (
            <Suspense>
              <SignedInActions />
            </Suspense>
          ) : (
            <Box sx={{ display: { xs: 'none', md: 'flex' }, gap: 1, ml: 1 }}>
              <SignInButtons />
            </Box>
          )}
        </Toolbar>
      </AppBar>
      {!overHero && <Toolbar />}
      {drawerUsed && (
        <Suspense>
          <NavDrawer open={drawerPath === here} onClose={() => setDrawerPath(null)} />
        </Suspense>
      )}
    </>
  );
}
