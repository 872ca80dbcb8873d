import { Box } from '@mui/material';
import { Outlet } from 'react-router';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';

/** The frame of public pages: header, page, footer. */
export function SiteLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Header />
      <Box component="main" id="main" sx={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
