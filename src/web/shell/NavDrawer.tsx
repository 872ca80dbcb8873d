import { Box, Divider, Drawer, List, ListItemButton, ListItemText, ListSubheader } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { useBarePath, useLocalePath } from '../app/locale.tsx';
import { Brand } from '../ui/Brand.tsx';
import { navItems } from './navItems.ts';
import { SignInButtons } from './SignInButtons.tsx';
import { useAccountActions } from './useAccountActions.ts';

/** Small screens: the navigation, then sign-in (signed out) or the user's name and account menu. */
export default function NavDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const here = useBarePath();
  const session = useSession();
  const actions = useAccountActions();
  return (
    <Drawer variant="temporary" anchor="left" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 280, backgroundImage: 'none' } } }}>
      <Box component="nav" aria-label={t('nav.label')} data-testid="nav-drawer">
        <Box sx={{ p: 2 }}>
          <Brand to={to('/')} />
        </Box>
        <Divider />
        <List>
          {navItems.map((item) =>
            item.path ? (
              <ListItemButton key={item.key} component={RouterLink} to={to(item.path)} selected={here === item.path}>
                <ListItemText primary={t(item.key)} />
              </ListItemButton>
            ) : (
              <ListItemButton key={item.key} disabled>
                <ListItemText primary={t(item.key)} secondary={t('nav.soon')} />
              </ListItemButton>
            ),
          )}
        </List>
        <Divider />
        {session.status === 'authenticated' ? (
          <List
            subheader={
              <ListSubheader disableSticky sx={{ bgcolor: 'transparent' }} data-testid="drawer-user">
                {session.user?.name.toUpperCase()}
              </ListSubheader>
            }
          >
            {actions.map((a) =>
              'to' in a ? (
                <ListItemButton key={a.key} component={RouterLink} to={a.to}>
                  <ListItemText primary={t(a.key)} />
                </ListItemButton>
              ) : (
                <ListItemButton
                  key={a.key}
                  onClick={() => {
                    onClose();
                    a.onClick();
                  }}
                >
                  <ListItemText primary={t(a.key)} />
                </ListItemButton>
              ),
            )}
          </List>
        ) : (
          <List
            subheader={
              <ListSubheader disableSticky sx={{ bgcolor: 'transparent' }}>
                {t('nav.authSection')}
              </ListSubheader>
            }
          >
            <Box sx={{ px: 2, display: 'grid', gap: 1 }}>
              <SignInButtons fullWidth />
            </Box>
          </List>
        )}
      </Box>
    </Drawer>
  );
}
