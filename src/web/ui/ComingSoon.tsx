import { Box, Paper, Typography } from '@mui/material';
import { Construction as ConstructionIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';

/** An honest placeholder for a page still being built: no fake data. */
export function ComingSoon({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, my: { xs: 3, md: 6 }, textAlign: 'center' }} data-testid="coming-soon">
      <title>{`${t(`pages.${page}`)} · BlockHost`}</title>
      <Box sx={{ color: 'secondary.main', mb: 1 }}>
        <ConstructionIcon sx={{ fontSize: 48 }} />
      </Box>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', md: '2rem' }, mb: 1 }}>
        {t(`pages.${page}`)}
      </Typography>
      <Typography color="text.secondary">{t('comingSoon')}</Typography>
    </Paper>
  );
}
