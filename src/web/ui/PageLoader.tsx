import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useMarkBusy } from '../app/busy.ts';

/** What a page shows while its data or code loads; the top loading bar follows it. */
export function PageLoader() {
  const { t } = useTranslation();
  useMarkBusy();
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', py: 10 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
