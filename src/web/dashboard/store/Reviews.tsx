import { useState } from 'react';
import { Alert, Stack, Typography } from '@mui/material';
import { useList } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GameReview } from '../../../contract/reviews.ts';
import type { ApiError } from '../../app/api.ts';
import { REVIEWS_PER_PAGE, ReviewList } from '../../catalogue/ReviewList.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { ReviewForm } from './ReviewForm.tsx';

/** Reviews, newest first, paged; and the form for a player who created a server of this game. */
export function Reviews({ definitionId, onReviewed }: { definitionId: string; onReviewed: () => void }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(0);
  const [thanked, setThanked] = useState(false);
  const { query, result } = useList<GameReview, ApiError>({
    resource: 'gameReviews',
    meta: { params: { definitionId } },
    pagination: { currentPage: page + 1, pageSize: REVIEWS_PER_PAGE },
    queryOptions: { placeholderData: keepPreviousData },
  });
  // The API says whether the caller may review (they created a game of it and have not reviewed it yet).
  const loaded = query.isSuccess;
  const canReview = loaded && result.canReview === true;
  const notEligible = loaded && result.canReview === false && result.mine === null;

  return (
    <Stack spacing={2}>
      {thanked && <Alert severity="success">{t('reviews.thanks')}</Alert>}
      {canReview && !thanked && (
        <ReviewForm
          definitionId={definitionId}
          onDone={() => {
            setThanked(true);
            setPage(0);
            onReviewed();
          }}
        />
      )}
      {notEligible && !thanked && (
        <Typography variant="body2" color="text.secondary">
          {t('reviews.notEligible')}
        </Typography>
      )}
      {query.isError ? (
        <LoadError message={`${t('reviews.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />
      ) : (
        <ReviewList reviews={loaded ? result.data : undefined} total={result.total ?? 0} page={page} onPage={setPage} />
      )}
    </Stack>
  );
}
