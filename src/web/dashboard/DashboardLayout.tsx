import { Suspense } from 'react';
import { Box, Container } from '@mui/material';
import { Outlet, useLocation } from 'react-router';
import { Header } from '../shell/Header.tsx';
import { Footer } from '../shell/Footer.tsx';
import { ErrorBoundary } from '../shell/ErrorBoundary.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';

/** The frame of signed-in pages. Product pages stack their own way. */
export function DashboardLayout() {
  const { pathname } = useLocation();
  const product = pathname.includes('/product');
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }} data-layout={product ? 'product' : 'dashboard'}>
      <Header />
      <Container component="main" id="main" maxWidth="lg" sx={{ flex: 1, py: { xs: 3, md: 5 }, ...(product && { position: 'relative', zIndex: 0, isolation: 'isolate' }) }}>
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Container>
      <Footer />
    </Box>
  );
}
