import { Button } from '@mui/material';
import { useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { ApiError } from '../../app/api.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { ProductView } from '../../catalogue/ProductView.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { Reviews } from './Reviews.tsx';

/** /dashboard/products/:id: a definition with its packages, the way to buy it, and its reviews with the player's form. */
export function ProductShow() {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  // A new review changes the rating: the definition is read again, and stays on screen meanwhile.
  const { query } = useOne<GameDefinition, ApiError>({ resource: 'definitions', id });
  if (query.isPending) return <PageLoader />;
  if (query.isError && !query.data)
    return (
      <>
        <LoadError message={query.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />
        <Button component={RouterLink} to={to('/dashboard/store')} sx={{ mt: 2 }}>
          {t('product.back')}
        </Button>
      </>
    );
  const definition = query.data.data;
  return (
    <ProductView
      definition={definition}
      back={to('/dashboard/store')}
      cta={
        <Button component={RouterLink} to={to(`/dashboard/creategame/${definition.id}`)} variant="contained" size="large" data-testid="create-cta">
          {t('product.create')}
        </Button>
      }
      reviews={<Reviews definitionId={definition.id} onReviewed={() => void query.refetch()} />}
    />
  );
}
