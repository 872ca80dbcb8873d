import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { ReviewPage } from '../../../contract/reviews.ts';
import { ApiError } from '../../app/api.ts';
import { useSession } from '../../app/auth.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { apiQuery, hasFailed } from '../../app/queries.ts';
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
  const def = useQuery(apiQuery<GameDefinition>(`/v1/definition/game/${encodeURIComponent(id)}`));
  const signedIn = session.status === 'authenticated';
  const createPath = to(`/dashboard/creategame/${id}`);

  if (hasFailed(def) && def.error)
    return (
      <StoreFrame>
        <LoadError
          message={def.error instanceof ApiError && def.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${errorMessage(def.error)}`}
          onRetry={() => void def.refetch()}
        />
        <Button component={RouterLink} to={to('/store')} sx={{ mt: 2 }}>
          {t('product.back')}
        </Button>
      </StoreFrame>
    );
  if (!def.isSuccess) return <PageLoader />;
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
  // Another page keeps the last one on screen until it arrives.
  const reviews = useQuery({ ...apiQuery<ReviewPage>(`/v1/game/review/${definitionId}?page=${page}&size=${REVIEWS_PER_PAGE}`), placeholderData: keepPreviousData });
  const loaded = reviews.isSuccess;
  const formPath = to(`/dashboard/products/${definitionId}`);
  return (
    <Stack spacing={2}>
      {session.status === 'authenticated' ? (
        loaded &&
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
      {hasFailed(reviews) && reviews.error ? (
        <LoadError message={`${t('reviews.loadError')} ${errorMessage(reviews.error)}`} onRetry={() => void reviews.refetch()} />
      ) : (
        <ReviewList reviews={loaded ? reviews.data.data : undefined} total={loaded ? reviews.data.totalElements : 0} page={page} onPage={setPage} />
      )}
    </Stack>
  );
}
