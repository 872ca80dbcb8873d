import { useState } from 'react';
import { Button, Stack } from '@mui/material';
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
 * The public /products/:id, read without Refine. Everyone reads the reviews here (the API answers
 * them without a token); buying and writing a review happen in the dashboard, which a visitor signs
 * in to reach.
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
  return (
    <StoreFrame>
      <ProductView definition={def.data} back={to('/store')} cta={cta} reviews={<PublicReviews definitionId={def.data.id} />} />
    </StoreFrame>
  );
}

/**
 * The reviews, for anyone. A player who may review is linked to the dashboard's form; a visitor is
 * offered to sign in to write one (the API alone knows who may, once it knows who asks).
 */
function PublicReviews({ definitionId }: { definitionId: string }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const session = useSession();
  const [page, setPage] = useState(0);
  const reviews = useFetch<ReviewPage>(`/v1/game/review/${definitionId}?page=${page}&size=${REVIEWS_PER_PAGE}`, { keep: true });
  const formPath = to(`/dashboard/products/${definitionId}`);
  return (
    <Stack spacing={2}>
      {session.status === 'authenticated' ? (
        reviews.status === 'done' &&
        reviews.data.canReview && (
          <Button component={RouterLink} to={formPath} variant="outlined" sx={{ alignSelf: 'flex-start' }}>
            {t('reviews.write')}
          </Button>
        )
      ) : (
        <Button variant="outlined" sx={{ alignSelf: 'flex-start' }} onClick={() => void session.signIn(formPath)} disabled={session.status === 'loading'}>
          {t('reviews.signInToWrite')}
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
