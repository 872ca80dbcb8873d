import { Box, Card, CardContent, Pagination, Rating, Skeleton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameReview } from '../../contract/reviews.ts';
import { formatDate } from '../ui/format.ts';
import { EmptyState } from '../ui/states.tsx';

export const REVIEWS_PER_PAGE = 5;

/** One page of a definition's reviews, newest first (undefined while it loads), and the pager. */
export function ReviewList({ reviews, total, page, onPage }: { reviews: GameReview[] | undefined; total: number; page: number; onPage: (page: number) => void }) {
  const { t, i18n } = useTranslation('games');
  const pages = Math.ceil(total / REVIEWS_PER_PAGE);
  if (!reviews) return <Skeleton variant="rounded" height={96} />;
  if (reviews.length === 0) return <EmptyState title={t('reviews.empty')} />;
  return (
    <>
      {reviews.map((r) => (
        <Card key={r.id} data-testid="review">
          <CardContent>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: r.comment ? 1 : 0 }}>
              <Rating value={r.rating} readOnly size="small" aria-label={t('rating.value', { count: r.rating })} />
              <Typography sx={{ fontWeight: 600 }}>{r.author.former ? t('reviews.formerPlayer') : r.author.name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {formatDate(r.createdAt, i18n.language)}
              </Typography>
            </Box>
            {r.comment && <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{r.comment}</Typography>}
          </CardContent>
        </Card>
      ))}
      {pages > 1 && <Pagination count={pages} page={page + 1} onChange={(_, p) => onPage(p - 1)} sx={{ alignSelf: 'center' }} />}
    </>
  );
}
