import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** What a page shows while its data or code loads. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', py: 10 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
