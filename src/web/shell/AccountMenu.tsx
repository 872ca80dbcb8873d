import { useState } from 'react';
import { Box, IconButton } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/auth.tsx';
import { usePopupOnDemand } from './usePopupOnDemand.ts';

/** The signed-in user's menu: an avatar with their initial; the menu itself loads at the first opening. */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [Items, load] = usePopupOnDemand(() => import('./AccountMenuItems.tsx'));
  return (
    <>
      <IconButton
        onClick={(e) => {
          load();
          setAnchor(e.currentTarget);
        }}
        aria-label={t('nav.accountMenu')}
        title={t('nav.accountMenu')}
        aria-haspopup="menu"
        color="inherit"
      >
        {/* A Box rather than MUI's Avatar, whose code every signed-in page would download. */}
        <Box
          component="span"
          sx={{
            width: 32,
            height: 32,
            borderRadius: '50%',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'secondary.main',
            color: 'secondary.contrastText',
            fontSize: '1rem',
          }}
        >
          {user?.name.slice(0, 1).toUpperCase()}
        </Box>
      </IconButton>
      {Items && <Items anchor={anchor} onClose={() => setAnchor(null)} />}
    </>
  );
}
