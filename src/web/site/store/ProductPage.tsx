import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Divider,
  Pagination,
  Rating,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { GameDefinition, ReviewPage } from '../../../contract/games.ts';
import { ApiError, apiFetch } from '../../app/api.ts';
import { useSession } from '../../app/auth.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { EmptyState, LoadError, PageFrame, Stars, formatDate, useErrorMessage, useFormatRam, useLocalized } from './shared.tsx';

const REVIEWS_PER_PAGE = 5;

/** A game definition: its description, packages, reviews and the way to buy it. */
export function ProductPage({ inDashboard = false }: { inDashboard?: boolean }) {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const text = useLocalized();
  const ram = useFormatRam();
  const errorMessage = useErrorMessage();
  const session = useSession();
  const def = useFetch<GameDefinition>(`/v1/definition/game/${encodeURIComponent(id)}`);
  const signedIn = session.status === 'authenticated';
  const createPath = `/dashboard/creategame/${id}`;

  // A reload (after a review, for the new rating) keeps the page on screen.
  const [lastDef, setLastDef] = useState<GameDefinition | null>(null);
  if (def.status === 'done' && def.data !== lastDef) setLastDef(def.data);
  const shown = def.status === 'done' ? def.data : def.status === 'loading' && lastDef?.id === id ? lastDef : null;

  if (def.status === 'loading' && !shown) return <PageLoader />;
  if (def.status === 'error' || !shown)
    return (
      <PageFrame inDashboard={inDashboard}>
        <LoadError
          message={def.status === 'error' && def.error instanceof ApiError && def.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${def.status === 'error' ? errorMessage(def.error) : ''}`}
          onRetry={def.reload}
        />
        <Button component={RouterLink} to={to(inDashboard ? '/dashboard/store' : '/store')} sx={{ mt: 2 }}>
          {t('product.back')}
        </Button>
      </PageFrame>
    );
  const d = shown;
  const cta =
    d.packages.length === 0 ? null : signedIn ? (
      <Button component={RouterLink} to={to(createPath)} variant="contained" size="large" data-testid="create-cta">
        {t('product.create')}
      </Button>
    ) : (
      <Button variant="contained" size="large" onClick={() => void session.signIn(to(createPath))} disabled={session.status === 'loading'} data-testid="create-cta">
        {t('product.signInToCreate')}
      </Button>
    );

  return (
    <PageFrame inDashboard={inDashboard}>
      <Button component={RouterLink} to={to(inDashboard ? '/dashboard/store' : '/store')} sx={{ mb: 2, ml: -1 }}>
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
          {cta}
        </Box>
      </Box>

      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 2 }}>
        {t('product.packages')}
      </Typography>
      {d.packages.length === 0 ? (
        <EmptyState title={t('product.noPackages')} />
      ) : (
        <TableContainer component={Card} sx={{ mb: 4 }}>
          <Table size="small" aria-label={t('product.packages')} sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('package.name')}</TableCell>
                <TableCell>{t('package.ram')}</TableCell>
                <TableCell>{t('package.players')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('package.period')}</TableCell>
                <TableCell align="right">{t('package.price')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {d.packages.map((p) => (
                <TableRow key={p.id}>
                  <TableCell sx={{ fontWeight: 600 }}>{p.name}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{ram(p.ramMb)}</TableCell>
                  <TableCell>{p.maxPlayers}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('package.days', { count: p.periodDays })}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {t('credits', { count: p.priceCredits })}
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {t('package.days', { count: p.periodDays })}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.7rem' }, mb: 2 }}>
        {t('reviews.title')}
      </Typography>
      {signedIn ? (
        <Reviews definitionId={d.id} onReviewed={def.reload} />
      ) : (
        <Alert
          severity="info"
          action={
            <Button color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }} onClick={() => void session.signIn(to(`/dashboard/products/${d.id}`))} disabled={session.status === 'loading'}>
              {t('reviews.signIn')}
            </Button>
          }
        >
          {t('reviews.signedOut')}
        </Alert>
      )}
    </PageFrame>
  );
}

/** Reviews, newest first, paged; and the form for a player who bought this game. */
function Reviews({ definitionId, onReviewed }: { definitionId: string; onReviewed: () => void }) {
  const { t, i18n } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(0);
  const [thanked, setThanked] = useState(false);
  const reviews = useFetch<ReviewPage>(`/v1/game/review/${definitionId}?page=${page}&size=${REVIEWS_PER_PAGE}`, { keep: true });
  // The API says whether the caller may review (they created a game of it and have not reviewed it yet).
  const canReview = reviews.status === 'done' && reviews.data.canReview;
  const notEligible = reviews.status === 'done' && !reviews.data.canReview && reviews.data.mine === null;
  const pages = reviews.status === 'done' ? Math.ceil(reviews.data.totalElements / REVIEWS_PER_PAGE) : 0;

  return (
    <Stack spacing={2}>
      {thanked && <Alert severity="success">{t('reviews.thanks')}</Alert>}
      {canReview && !thanked && (
        <ReviewForm
          definitionId={definitionId}
          onDone={() => {
            setThanked(true);
            setPage(0);
            reviews.reload();
            onReviewed();
          }}
        />
      )}
      {notEligible && !thanked && (
        <Typography variant="body2" color="text.secondary">
          {t('reviews.notEligible')}
        </Typography>
      )}
      {reviews.status === 'loading' && <Skeleton variant="rounded" height={96} />}
      {reviews.status === 'error' && <LoadError message={`${t('reviews.loadError')} ${errorMessage(reviews.error)}`} onRetry={reviews.reload} />}
      {reviews.status === 'done' && reviews.data.data.length === 0 && <EmptyState title={t('reviews.empty')} />}
      {reviews.status === 'done' &&
        reviews.data.data.map((r) => (
          <Card key={r.id} data-testid="review">
            <CardContent>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: r.comment ? 1 : 0 }}>
                <Rating value={r.rating} readOnly size="small" aria-label={t('rating.value', { count: r.rating })} />
                <Typography sx={{ fontWeight: 600 }}>{r.author.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {formatDate(r.createdAt, i18n.language)}
                </Typography>
              </Box>
              {r.comment && <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{r.comment}</Typography>}
            </CardContent>
          </Card>
        ))}
      {pages > 1 && <Pagination count={pages} page={page + 1} onChange={(_, p) => setPage(p - 1)} sx={{ alignSelf: 'center' }} />}
    </Stack>
  );
}

function ReviewForm({ definitionId, onDone }: { definitionId: string; onDone: () => void }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'sending' } | { kind: 'error'; message: string }>({ kind: 'idle' });

  const submit = async () => {
    if (!rating) return;
    setState({ kind: 'sending' });
    try {
      await apiFetch('/v1/game/review', { method: 'POST', json: { definitionId, rating, ...(comment.trim() ? { comment: comment.trim() } : {}) } });
      onDone();
    } catch (err) {
      setState({ kind: 'error', message: errorMessage(err) });
    }
  };
  return (
    <Card component="form" onSubmit={(e) => (e.preventDefault(), void submit())} aria-labelledby="review-form-title">
      <CardContent>
        <Typography id="review-form-title" variant="h4" component="h3" sx={{ mb: 1 }}>
          {t('reviews.write')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
          <Typography component="legend" variant="body2">
            {t('reviews.yourRating')}
          </Typography>
          <Rating name="rating" value={rating} onChange={(_, v) => setRating(v)} getLabelText={(v: number) => t('rating.value', { count: v })} />
        </Box>
        <TextField
          label={t('reviews.comment')}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 2000 } }}
          helperText={`${comment.length} / 2000`}
        />
        {state.kind === 'error' && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {state.message}
          </Alert>
        )}
        <Divider sx={{ my: 2 }} />
        <Button type="submit" variant="contained" disabled={!rating || state.kind === 'sending'}>
          {state.kind === 'sending' ? t('reviews.sending') : t('reviews.submit')}
        </Button>
      </CardContent>
    </Card>
  );
}
