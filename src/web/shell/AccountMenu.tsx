import { useState } from 'react';
import { Avatar, IconButton, Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { useAccountActions } from './useAccountActions.ts';

/** The signed-in user's menu: an avatar with their initial. */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const actions = useAccountActions();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton onClick={(e) => setAnchor(e.currentTarget)} aria-label={t('nav.accountMenu')} title={t('nav.accountMenu')} aria-haspopup="menu" color="inherit">
        <Avatar sx={{ width: 32, height: 32, bgcolor: 'secondary.main', color: 'secondary.contrastText', fontSize: '1rem' }}>{user?.name.slice(0, 1).toUpperCase()}</Avatar>
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {actions.map((a) =>
          'to' in a ? (
            <MenuItem key={a.key} component={RouterLink} to={a.to} onClick={close}>
              {t(a.key)}
            </MenuItem>
          ) : (
            <MenuItem
              key={a.key}
              onClick={() => {
                close();
                a.onClick();
              }}
            >
              {t(a.key)}
            </MenuItem>
          ),
        )}
      </Menu>
    </>
  );
}
