import { Box, Card, CardActionArea, CardContent, CardMedia, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { GameDefinition } from '../../contract/catalogue.ts';
import { useLocalized } from '../ui/format.ts';
import { Stars } from './Stars.tsx';

/** A game of the catalogue as a card: picture, name, version, rating, price, linking to its page. */
export function DefinitionCard({ definition: d, to }: { definition: GameDefinition; to: string }) {
  const { t } = useTranslation('games');
  const text = useLocalized();
  return (
    <Card sx={{ display: 'flex' }} data-testid="game-card">
      <CardActionArea component={RouterLink} to={to} sx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}>
        {d.image ? (
          <CardMedia component="img" image={d.image} srcSet={d.imageSrcSet ?? undefined} alt="" sx={{ aspectRatio: '16 / 9', objectFit: 'cover', bgcolor: 'action.hover' }} />
        ) : (
          <Box sx={{ aspectRatio: '16 / 9', bgcolor: 'action.hover' }} />
        )}
        <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="h4" component="h2">
              {text(d.name)}
            </Typography>
            <Chip label={t('store.mcVersion', { version: d.version })} size="small" variant="outlined" />
          </Box>
          <Stars average={d.rating.average} count={d.rating.count} />
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1, display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
            {text(d.description)}
          </Typography>
          <Typography variant="subtitle1" color="primary" sx={{ fontWeight: 700 }}>
            {d.priceFrom === null ? t('store.noPackage') : t('store.priceFrom', { count: d.priceFrom })}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
