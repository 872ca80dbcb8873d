import { Box, Rating, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A definition's average rating in stars, with how many reviews it comes from. */
export function Stars({ average, count }: { average: number | null; count: number }) {
  const { t } = useTranslation('games');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
      <Rating value={average ?? 0} precision={0.5} readOnly size="small" aria-label={average === null ? t('rating.none') : t('rating.label', { average: average.toFixed(1) })} />
      <Typography variant="body2" color="text.secondary">
        {count === 0 ? t('rating.none') : t('rating.count', { count })}
      </Typography>
    </Box>
  );
}
