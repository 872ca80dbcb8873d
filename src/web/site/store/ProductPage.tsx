import { useState } from 'react';
import { Alert, Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { GameDefinition, ReviewPage } from '../../../contract/games.ts';
import { ApiError } from '../../app/api.ts';
import { useSession } from '../../app/auth.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { StoreFrame } from './StoreFrame.tsx';
import { ProductView } from '../../catalogue/ProductView.tsx';
import { REVIEWS_PER_PAGE, ReviewList } from '../../catalogue/ReviewList.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';

/**
 * The public /products/:id, read without Refine. Buying and reviewing happen in the dashboard: a
 * visitor signs in to get there, a signed-in player reads the reviews here and is linked there.
 */
export function ProductPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const session = useSession();
  const def = useFetch<GameDefinition>(`/v1/definition/game/${encodeURIComponent(id)}`);
  const signedIn = session.status === 'authenticated';
  const createPath = to(`/dashboard/creategame/${id}`);

  if (def.status === 'loading') return <PageLoader />;
  if (def.status === 'error')
    return (
      <StoreFrame>
        <LoadError message={def.error instanceof ApiError && def.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${errorMessage(def.error)}`} onRetry={def.reload} />
        <Button component={RouterLink} to={to('/store')} sx={{ mt: 2 }}>
          {t('product.back')}
        </Button>
      </StoreFrame>
    );
  const cta = signedIn ? (
    <Button component={RouterLink} to={createPath} variant="contained" size="large" data-testid="create-cta">
      {t('product.create')}
    </Button>
  ) : (
    <Button variant="contained" size="large" onClick={() => void session.signIn(createPath)} disabled={session.status === 'loading'} data-testid="create-cta">
      {t('product.signInToCreate')}
    </Button>
  );
  const reviews = signedIn ? (
    <PublicReviews definitionId={def.data.id} />
  ) : (
    <Alert
      severity="info"
      action={
        <Button color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }} onClick={() => void session.signIn(to(`/dashboard/products/${def.data.id}`))} disabled={session.status === 'loading'}>
          {t('reviews.signIn')}
        </Button>
      }
    >
      {t('reviews.signedOut')}
    </Alert>
  );
  return (
    <StoreFrame>
      <ProductView definition={def.data} back={to('/store')} cta={cta} reviews={reviews} />
    </StoreFrame>
  );
}

/** The reviews, for a signed-in player; one who may review is linked to the dashboard's form. */
function PublicReviews({ definitionId }: { definitionId: string }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(0);
  const reviews = useFetch<ReviewPage>(`/v1/game/review/${definitionId}?page=${page}&size=${REVIEWS_PER_PAGE}`, { keep: true });
  return (
    <Stack spacing={2}>
      {reviews.status === 'done' && reviews.data.canReview && (
        <Button component={RouterLink} to={to(`/dashboard/products/${definitionId}`)} variant="outlined" sx={{ alignSelf: 'flex-start' }}>
          {t('reviews.write')}
        </Button>
      )}
      {reviews.status === 'error' ? (
        <LoadError message={`${t('reviews.loadError')} ${errorMessage(reviews.error)}`} onRetry={reviews.reload} />
      ) : (
        <ReviewList reviews={reviews.status === 'done' ? reviews.data.data : undefined} total={reviews.status === 'done' ? reviews.data.totalElements : 0} page={page} onPage={setPage} />
      )}
    </Stack>
  );
}
