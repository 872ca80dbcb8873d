import { Box } from '@mui/material';
import { AccountMenu } from './AccountMenu.tsx';
import { CreditButton } from './CreditButton.tsx';
import { NotificationBell } from './NotificationBell.tsx';

/** The header's signed-in part, its own chunk: visitors never download menus they cannot open. */
export default function SignedInActions() {
  return (
    <>
      <NotificationBell />
      <CreditButton />
      <Box sx={{ display: { xs: 'none', md: 'block' } }}>
        <AccountMenu />
      </Box>
    </>
  );
}
