import { Alert, Box, Button, Card, CardContent, Divider, FormHelperText, Rating, TextField, Typography } from '@mui/material';
import { useForm } from '@refinedev/react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { GameReview, GameReviewCreate } from '../../../contract/reviews.ts';
import type { ApiError } from '../../app/api.ts';
import { useErrorMessage } from '../../ui/states.tsx';

/** The form's values, and what it sends: the game reviewed, and the comment only when one was written. */
interface ReviewValues {
  definitionId?: string;
  rating: number | null;
  comment?: string;
}

/** A player's review of a game they created a server of: stars and an optional comment. */
export function ReviewForm({ definitionId, onDone }: { definitionId: string; onDone: () => void }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const {
    control,
    handleSubmit,
    watch,
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<GameReview, ApiError, ReviewValues>({
    defaultValues: { rating: null, comment: '' },
    refineCoreProps: { resource: 'gameReviews', action: 'create', redirect: false, successNotification: false, errorNotification: false, onMutationSuccess: onDone },
  });
  const submit = handleSubmit((v) => {
    const written = v.comment?.trim();
    const review: GameReviewCreate & ReviewValues = { definitionId, rating: v.rating ?? 0, ...(written ? { comment: written } : {}) };
    return onFinish(review).catch(() => {});
  });
  // A refusal that names no field (already reviewed, no server of this game) shows under the form.
  const refusal = mutation.error && !mutation.error.errors ? errorMessage(mutation.error) : null;
  const comment = watch('comment') ?? '';

  return (
    <Card component="form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="review-form-title">
      <CardContent>
        <Typography id="review-form-title" variant="h4" component="h3" sx={{ mb: 1 }}>
          {t('reviews.write')}
        </Typography>
        <Controller
          control={control}
          name="rating"
          render={({ field, fieldState }) => (
            <Box sx={{ mb: 2 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography component="legend" variant="body2">
                  {t('reviews.yourRating')}
                </Typography>
                <Rating name="rating" value={field.value} onChange={(_, v) => field.onChange(v)} getLabelText={(v: number) => t('rating.value', { count: v })} />
              </Box>
              {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
            </Box>
          )}
        />
        <Controller
          control={control}
          name="comment"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('reviews.comment')}
              multiline
              minRows={3}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 2000 } }}
              error={!!fieldState.error}
              helperText={fieldState.error?.message ?? `${comment.length} / 2000`}
            />
          )}
        />
        {refusal && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {refusal}
          </Alert>
        )}
        <Divider sx={{ my: 2 }} />
        <Button type="submit" variant="contained" disabled={!watch('rating') || formLoading}>
          {formLoading ? t('reviews.sending') : t('reviews.submit')}
        </Button>
      </CardContent>
    </Card>
  );
}
