import { Box } from '@mui/material';
import { Outlet, useLocation } from 'react-router';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';

/** The frame of public pages: header, page, footer. Product pages stack their own way. */
export function SiteLayout() {
  const { pathname } = useLocation();
  const product = pathname.includes('/product');
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }} data-layout={product ? 'product' : 'site'}>
      <Header />
      <Box component="main" id="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', ...(product && { position: 'relative', zIndex: 0, isolation: 'isolate' }) }}>
        {/* A page that fails keeps the header and footer around its error page. */}
        <ErrorBoundary resetKey={pathname}>
          <Outlet />
        </ErrorBoundary>
      </Box>
      <Footer />
    </Box>
  );
}
