import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link as RouterLink, useRouteError } from 'react-router';
import { ApiError } from '../app/api.ts';

/** SPEC.md §2: status code, status message and 'Go back home' to /. */
export function ErrorPage({ status, message }: { status: number; message: string }) {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 12 }, textAlign: 'center' }}>
      <Typography variant="h1" component="p" color="primary" sx={{ fontSize: { xs: '4rem', md: '6rem' } }}>
        {status}
      </Typography>
      <Typography variant="h2" component="h1" sx={{ fontSize: '1.5rem', mb: 2 }} data-testid="error-message">
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

/** Fatal and unhandled errors of a route land here. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error)) return <ErrorPage status={error.status} message={error.statusText || t('errors.unexpected')} />;
  if (error instanceof ApiError) return <ErrorPage status={error.status} message={error.message} />;
  console.error(error);
  return <ErrorPage status={500} message={t('errors.unexpected')} />;
}
