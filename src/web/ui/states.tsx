import type { ReactNode } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../app/api.ts';

/** A readable message for a failed call: the API's detail when it gave one. */
export function useErrorMessage() {
  const { t } = useTranslation('games');
  return (error: unknown) => {
    if (error instanceof ApiError) return error.problem?.detail ?? error.problem?.title ?? t('errors.status', { status: error.status });
    return t('errors.network');
  };
}

/** A read that failed, with a button to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('games');
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}

/** Nothing to show yet, said in a dashed box, with what to do about it under the title. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 2 }}>
      <Typography variant="h4" component="p" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
