import { Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAccountActions } from './useAccountActions.ts';

/** The account menu's popup, its own chunk: loaded at the first opening, not with every signed-in page. */
export default function AccountMenuItems({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const actions = useAccountActions();
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
      {actions.map((a) =>
        'to' in a ? (
          <MenuItem key={a.key} component={RouterLink} to={a.to} onClick={onClose}>
            {t(a.key)}
          </MenuItem>
        ) : (
          <MenuItem
            key={a.key}
            onClick={() => {
              onClose();
              a.onClick();
            }}
          >
            {t(a.key)}
          </MenuItem>
        ),
      )}
    </Menu>
  );
}
