import type { ReactNode } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { GameDefinition } from '../../contract/catalogue.ts';
import { useLocalized } from '../ui/format.ts';
import { EmptyState } from '../ui/states.tsx';
import { PackagesTable } from './PackagesTable.tsx';
import { Stars } from './Stars.tsx';

/**
 * A definition's page: picture, description, packages, then its reviews (`reviews`, which the
 * public page and the dashboard fill their own way). `cta` buys it; `back` is the store's path.
 */
export function ProductView({ definition: d, back, cta, reviews }: { definition: GameDefinition; back: string; cta: ReactNode; reviews: ReactNode }) {
  const { t } = useTranslation('games');
  const text = useLocalized();
  return (
    <>
      <Button component={RouterLink} to={back} sx={{ mb: 2, ml: -1 }}>
        ← {t('product.back')}
      </Button>
      <Box sx={{ display: 'grid', gap: { xs: 3, md: 4 }, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, alignItems: 'start', mb: 4 }}>
        {d.image ? (
          <Box component="img" src={d.image} srcSet={d.imageSrcSet ?? undefined} alt="" sx={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 2, bgcolor: 'action.hover' }} />
        ) : (
          <Box sx={{ width: '100%', aspectRatio: '16 / 9', borderRadius: 2, bgcolor: 'action.hover' }} />
        )}
        <Box>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.9rem', md: '2.4rem' }, mb: 1 }}>
            {text(d.name)}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }} useFlexGap>
            <Typography color="text.secondary">{t('store.mcVersion', { version: d.version })}</Typography>
            <Stars average={d.rating.average} count={d.rating.count} />
          </Stack>
          <Typography sx={{ mb: 3, whiteSpace: 'pre-line' }}>{text(d.description)}</Typography>
          {d.priceFrom !== null && (
            <Typography variant="h4" component="p" color="primary" sx={{ mb: 2 }}>
              {t('store.priceFrom', { count: d.priceFrom })}
            </Typography>
          )}
          {d.packages.length > 0 && cta}
        </Box>
      </Box>

      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 2 }}>
        {t('product.packages')}
      </Typography>
      {d.packages.length === 0 ? <EmptyState title={t('product.noPackages')} /> : <PackagesTable packages={d.packages} />}

      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 2 }}>
        {t('reviews.title')}
      </Typography>
      {reviews}
    </>
  );
}
