import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useCustomMutation } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import { errorText, type ApiError } from '../../app/api.ts';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * Sends an image to a definition, through the data provider (multipart); answers the definition
 * with its new image's URL. The caller says what went wrong, so Refine's own notice stays quiet.
 */
export function useImageUpload(): (definitionId: string, file: File) => Promise<GameDefinition> {
  const { mutateAsync } = useCustomMutation<GameDefinition, ApiError, FormData>();
  return async (definitionId, file) => {
    const values = new FormData();
    values.append('image', file);
    const { data } = await mutateAsync({ url: `/v1/definition/game/${encodeURIComponent(definitionId)}/image`, method: 'post', values, successNotification: false, errorNotification: false });
    return data;
  };
}

/**
 * The definition's image: a preview, a file picker (PNG, JPEG or WebP up to 5 MB, refused here
 * before any upload) and a removal. With `definitionId` the file is uploaded at once and the API's
 * refusal shown; without (a definition not created yet) it is kept for `onFile` to send later.
 */
export function ImageInput({ value, onChange, definitionId, onFile }: { value: string | null; onChange: (image: string | null) => void; definitionId?: string; onFile?: (file: File | null) => void }) {
  const { t } = useTranslation('staff');
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const uploadImage = useImageUpload();
  useEffect(() => () => void (pending && URL.revokeObjectURL(pending)), [pending]);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setError(null);
    if (!TYPES.includes(file.type)) return setError(t('definitions.image.wrongType'));
    if (file.size > MAX_BYTES) return setError(t('definitions.image.tooLarge', { size: (file.size / 1024 / 1024).toFixed(1) }));
    if (!definitionId) {
      setPending(URL.createObjectURL(file));
      onFile?.(file);
      return;
    }
    setBusy(true);
    try {
      onChange((await uploadImage(definitionId, file)).image);
    } catch (err) {
      setError(`${t('definitions.image.uploadFailed')} ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  const remove = () => {
    setPending(null);
    onFile?.(null);
    onChange(null);
  };
  const shown = pending ?? value;
  return (
    <Stack spacing={1.5} data-testid="image-input">
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('definitions.fields.image')}
      </Typography>
      <Box sx={{ width: '100%', maxWidth: 420, aspectRatio: '16 / 9', borderRadius: 2, bgcolor: 'action.hover', overflow: 'hidden', display: 'grid', placeItems: 'center' }} aria-busy={busy}>
        {shown ? (
          <Box component="img" src={shown} alt={t('definitions.image.preview')} sx={{ width: '100%', height: '100%', objectFit: 'cover' }} data-testid="image-preview" />
        ) : (
          <Typography color="text.secondary">{t('definitions.image.none')}</Typography>
        )}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" component="label" disabled={busy} loading={busy}>
          {shown ? t('definitions.image.replace') : t('definitions.image.pick')}
          <input ref={input} type="file" hidden accept={TYPES.join(',')} onChange={(e) => void pick(e.target.files?.[0])} data-testid="image-file" />
        </Button>
        {shown && (
          <Button color="error" onClick={remove} disabled={busy}>
            {t('definitions.image.remove')}
          </Button>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {definitionId ? t('definitions.image.helpNow') : t('definitions.image.helpLater')}
      </Typography>
      {error && (
        <Alert severity="error" data-testid="image-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
