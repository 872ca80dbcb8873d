import { Box, Container } from '@mui/material';
import { Outlet } from 'react-router';
import { Header } from '../shell/Header.tsx';
import { Footer } from '../shell/Footer.tsx';

/** The frame of signed-in pages. */
export function DashboardLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Header />
      <Container component="main" id="main" maxWidth="lg" sx={{ flex: 1, py: { xs: 3, md: 5 } }}>
        <Outlet />
      </Container>
      <Footer />
    </Box>
  );
}
