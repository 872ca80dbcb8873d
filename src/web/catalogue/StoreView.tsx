import { useState } from 'react';
import { Box, Button, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../contract/catalogue.ts';
import { useLocalePath } from '../app/locale.tsx';
import { EmptyState, LoadError } from '../ui/states.tsx';
import { DefinitionCard } from './DefinitionCard.tsx';

/**
 * The catalogue, filterable by Minecraft version: the public /store and the dashboard's store show
 * it, each reading the definitions its own way. `base` prefixes the product pages' paths.
 */
export function StoreView({ definitions, error, onRetry, base }: { definitions: GameDefinition[] | undefined; error: string | null; onRetry: () => void; base: '' | '/dashboard' }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const [version, setVersion] = useState('');
  const versions = definitions ? [...new Set(definitions.map((d) => d.version))].sort(compareVersions) : [];
  const shown = definitions?.filter((d) => !version || d.version === version) ?? [];
  const loading = !definitions && !error;

  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: 2, mb: 3 }}>
        <Box>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' } }}>
            {t('store.title')}
          </Typography>
          <Typography color="text.secondary">{t('store.subtitle')}</Typography>
        </Box>
        <FormControl size="small" sx={{ minWidth: 200 }} disabled={!definitions}>
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

      {error && <LoadError message={`${t('store.loadError')} ${error}`} onRetry={onRetry} />}

      {definitions && shown.length === 0 && (
        <EmptyState title={definitions.length === 0 ? t('store.empty') : t('store.emptyFilter')}>
          {version && (
            <Button onClick={() => setVersion('')} sx={{ mt: 1 }}>
              {t('store.clearFilter')}
            </Button>
          )}
        </EmptyState>
      )}

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {loading &&
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
          <DefinitionCard key={d.id} definition={d} to={to(`${base}/products/${d.id}`)} />
        ))}
      </Box>
    </>
  );
}

/** Newest Minecraft version first. */
function compareVersions(a: string, b: string) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
}
