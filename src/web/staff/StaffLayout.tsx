import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Drawer, List, ListItem, ListItemButton, ListItemText, ListSubheader, Paper, type Theme } from '@mui/material';
import { Menu as MenuIcon } from '@mui/icons-material';
import { CanAccess, useMenu, type TreeMenuItem } from '@refinedev/core';
import { RefineSnackbarProvider, useNotificationProvider } from '@refinedev/mui';
import { UnsavedChangesNotifier } from '@refinedev/react-router';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';
import { showNotificationsWith } from '../app/notificationProvider.ts';
import { SellerPlaceholderAlert } from './SellerPlaceholderAlert.tsx';

/** Refine's notifications show in this snackbar while the back office is open. */
function Notifications() {
  const provider = useNotificationProvider();
  useEffect(() => showNotificationsWith(provider), [provider]);
  return null;
}

/** The resources grouped by `meta.parent` (Catalogue, Sales, Players, Support), each one its list page. */
function StaffMenu({ onPick }: { onPick?: () => void }) {
  const { t } = useTranslation('staff');
  const { menuItems, selectedKey } = useMenu();
  const to = useLocalePath();
  const entry = (item: TreeMenuItem) => (
    <CanAccess key={item.key} resource={item.name} action="list">
      <ListItem disablePadding>
        <ListItemButton
          component={RouterLink}
          to={to(item.route ?? '')}
          selected={item.key === selectedKey}
          aria-current={item.key === selectedKey ? 'page' : undefined}
          onClick={onPick}
          sx={{ py: 0.5, pl: 3, borderRadius: 1 }}
        >
          <ListItemText primary={t(`menu.${item.name}`)} slotProps={{ primary: { variant: 'body2' } }} />
        </ListItemButton>
      </ListItem>
    </CanAccess>
  );
  return (
    <Box component="nav" aria-label={t('menu.label')} data-testid="staff-menu">
      {menuItems.map((group) =>
        group.children.length ? (
          <List
            key={group.key}
            dense
            subheader={
              <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: 2.5, fontWeight: 700 }}>
                {t(`menu.${group.name}`)}
              </ListSubheader>
            }
          >
            {group.children.map(entry)}
          </List>
        ) : (
          <List key={group.key} dense>
            {entry(group)}
          </List>
        ),
      )}
    </Box>
  );
}

/**
 * Refine's views (List, Show, Edit, Create) in our theme: breadcrumb links in the primary colour
 * rather than the browser's, less padding on a phone so a grid keeps its width, and red button text
 * (delete, remove) in the lighter red on dark paper, where the main one is too dark to read.
 */
const viewStyles = (theme: Theme) => ({
  flex: 1,
  minWidth: 0,
  '& .MuiBreadcrumbs-root a': { color: theme.palette.primary.main, textDecoration: 'none', '&:hover': { textDecoration: 'underline' } },
  '& .MuiCardHeader-root, & .MuiCardContent-root, & .MuiCardActions-root': { px: { xs: 1.5, sm: 2 } },
  ...(theme.palette.mode === 'dark' && { '& .MuiButton-textError, & .MuiButton-outlinedError': { color: theme.palette.error.light } }),
});

/**
 * The back office's frame inside the dashboard's: its menu beside the page on a wide screen, behind
 * a button on a phone; Refine's snackbar for what a save or a deletion did.
 */
export function StaffLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('staff');
  const [open, setOpen] = useState(false);
  return (
    <RefineSnackbarProvider anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }} maxSnack={3}>
      <Notifications />
      <UnsavedChangesNotifier translationKey="warnWhenUnsavedChanges" />
      <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start' }} data-testid="staff-layout">
        <Paper variant="outlined" sx={{ display: { xs: 'none', md: 'block' }, width: 220, flexShrink: 0, position: 'sticky', top: 80, py: 1, px: 1 }}>
          <StaffMenu />
        </Paper>
        <Box sx={viewStyles}>
          <Button startIcon={<MenuIcon />} variant="outlined" onClick={() => setOpen(true)} sx={{ display: { md: 'none' }, mb: 2 }} data-testid="staff-menu-button">
            {t('menu.open')}
          </Button>
          <SellerPlaceholderAlert />
          {children ?? <Outlet />}
        </Box>
      </Box>
      <Drawer open={open} onClose={() => setOpen(false)} slotProps={{ paper: { sx: { width: 260, backgroundImage: 'none', p: 1 } } }}>
        <StaffMenu onPick={() => setOpen(false)} />
      </Drawer>
    </RefineSnackbarProvider>
  );
}
