import { useState } from 'react';
import { Box, Button, Card, CardActionArea, CardContent, CardMedia, Chip, FormControl, InputLabel, MenuItem, Select, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Page } from '../../../contract/common.ts';
import type { GameDefinition } from '../../../contract/games.ts';
import { useFetch } from '../../app/useFetch.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { EmptyState, LoadError, PageFrame, Stars, useErrorMessage, useLocalized } from './shared.tsx';

/** The catalogue: every published game definition, filterable by Minecraft version. */
export function StorePage({ inDashboard = false }: { inDashboard?: boolean }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const text = useLocalized();
  const errorMessage = useErrorMessage();
  const list = useFetch<Page<GameDefinition>>('/v1/definition/game/list?size=100');
  const [version, setVersion] = useState('');
  const base = inDashboard ? '/dashboard' : '';

  const versions = list.status === 'done' ? [...new Set(list.data.data.map((d) => d.version))].sort(compareVersions) : [];
  const shown = list.status === 'done' ? list.data.data.filter((d) => !version || d.version === version) : [];

  return (
    <PageFrame inDashboard={inDashboard}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: 2, mb: 3 }}>
        <Box>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' } }}>
            {t('store.title')}
          </Typography>
          <Typography color="text.secondary">{t('store.subtitle')}</Typography>
        </Box>
        <FormControl size="small" sx={{ minWidth: 200 }} disabled={list.status !== 'done'}>
          <InputLabel id="store-version-label" shrink>
            {t('store.version')}
          </InputLabel>
          <Select labelId="store-version-label" label={t('store.version')} value={version} displayEmpty notched onChange={(e) => setVersion(e.target.value)} data-testid="version-filter">
            <MenuItem value="">{t('store.allVersions')}</MenuItem>
            {versions.map((v) => (
              <MenuItem key={v} value={v}>
                {v}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>

      {list.status === 'error' && <LoadError message={`${t('store.loadError')} ${errorMessage(list.error)}`} onRetry={list.reload} />}

      {list.status === 'done' && shown.length === 0 && (
        <EmptyState title={list.data.data.length === 0 ? t('store.empty') : t('store.emptyFilter')}>
          {version && (
            <Button onClick={() => setVersion('')} sx={{ mt: 1 }}>
              {t('store.clearFilter')}
            </Button>
          )}
        </EmptyState>
      )}

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {list.status === 'loading' &&
          [0, 1, 2].map((i) => (
            <Card key={i} aria-hidden>
              <Skeleton variant="rectangular" height={160} />
              <CardContent>
                <Skeleton width="60%" height={32} />
                <Skeleton />
                <Skeleton width="80%" />
              </CardContent>
            </Card>
          ))}
        {shown.map((d) => (
          <Card key={d.id} sx={{ display: 'flex' }} data-testid="game-card">
            <CardActionArea component={RouterLink} to={to(`${base}/products/${d.id}`)} sx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}>
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
        ))}
      </Box>
    </PageFrame>
  );
}

function compareVersions(a: string, b: string) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
}
