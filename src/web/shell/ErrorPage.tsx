import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../app/api.ts';
import { isChunkLoadError, reloadForChunkError } from '../app/chunkReload.ts';
import { PageLoader } from '../ui/PageLoader.tsx';

/** docs/product.md, The shell: status code, status message and 'Go back home' to /. */
export function ErrorPage({ status, message }: { status: number; message: string }) {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 12 }, textAlign: 'center' }} data-testid="error-page">
      <Typography variant="h1" component="p" color="primary" sx={{ fontSize: { xs: '4rem', md: '6rem' } }} data-testid="error-status">
        {status}
      </Typography>
      <Typography variant="h2" component="h1" sx={{ fontSize: '1.5rem', mb: 2, overflowWrap: 'anywhere' }} data-testid="error-message">
        {message}
      </Typography>
      <Box sx={{ mt: 4 }}>
        <Button component={RouterLink} to="/" variant="contained" size="large">
          {t('errors.goHome')}
        </Button>
      </Box>
    </Container>
  );
}

/** Fatal and unhandled errors of a page land here; a chunk of an older build reloads the page once. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (isChunkLoadError(error) && reloadForChunkError()) return <PageLoader />;
  if (error instanceof ApiError) return <ErrorPage status={error.status} message={error.message} />;
  return <ErrorPage status={500} message={t('errors.unexpected')} />;
}
