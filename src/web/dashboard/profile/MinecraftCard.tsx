import { Alert, Avatar, Box, Button, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { useOne, type CreateResponse, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { McLink, MinecraftAccountInfo } from '../../../contract/user.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { FALLBACK_HEAD, FALLBACK_NAME } from '../../ui/McHead.tsx';
import { McNameInput, isMcName } from '../../ui/McNameInput.tsx';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';

interface LinkValues {
  mcName: string;
}

/**
 * The linked Minecraft account (head and name, or Steve and why to link one), and the form that links one
 * by name (`minecraftAccounts` are created at /v1/user/mcuuid) or changes it.
 */
export function MinecraftCard({ mcUuid, onLinked }: { mcUuid: string | null; onLinked: (link: McLink) => void }) {
  const { t } = useTranslation('social');
  const { query, result: account } = useOne<MinecraftAccountInfo, ApiError>({ resource: 'minecraftAccounts', id: mcUuid ?? '', queryOptions: { enabled: mcUuid !== null } });
  const { control, handleSubmit, watch, reset, formState, refineCore } = useForm<McLink, HttpError, LinkValues>({
    mode: 'onChange',
    defaultValues: { mcName: '' },
    refineCoreProps: { resource: 'minecraftAccounts', action: 'create', redirect: false },
  });
  const { run, busy, result } = useConfirmedAction();
  const linked = mcUuid !== null;
  const shown = linked && account ? account : null;
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        // Refine's forms wait for the answer by default (pessimistic), so there is one to read.
        const { data } = (await refineCore.onFinish({ mcName: values.mcName.trim() })) as CreateResponse<McLink>;
        reset();
        onLinked(data);
        return data;
      },
      success: (link) => t('profile.linked', { name: link.mcName }),
      failure: t('profile.linkFailed'),
    }),
  );
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          {t('profile.minecraft')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2.5 }}>
          <Box sx={{ position: 'relative' }}>
            <Avatar
              variant="rounded"
              src={shown ? `data:image/png;base64,${shown.head}` : FALLBACK_HEAD}
              alt={shown?.name ?? FALLBACK_NAME}
              data-testid="profile-head"
              data-linked={shown ? 'true' : 'false'}
              sx={{ width: 96, height: 96, borderRadius: 2, '& img': { imageRendering: 'pixelated' } }}
            />
            {linked && query.isLoading && <CircularProgress size={32} aria-label={t('loading', { ns: 'common' })} sx={{ position: 'absolute', top: 32, left: 32 }} />}
          </Box>
          {linked ? (
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h3" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="profile-mc-name">
                {shown?.name ?? FALLBACK_NAME}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('profile.linkedState')}
              </Typography>
            </Box>
          ) : (
            // No name to show yet: say why linking one matters instead of a placeholder name.
            <Box sx={{ minWidth: 0 }} data-testid="link-minecraft-cta">
              <Typography variant="h3" component="p" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
                {t('profile.cta.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('profile.cta.text')}
              </Typography>
            </Box>
          )}
        </Box>
        {linked && query.isError && (
          <Alert severity="warning" sx={{ mb: 2 }} action={<Button onClick={() => void query.refetch()}>{t('retry', { ns: 'common' })}</Button>}>
            {t('profile.headError')}: {errorText(query.error)}
          </Alert>
        )}
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <McNameInput control={control} name="mcName" label={t('profile.mcName')} help={t('profile.mcNameHelp')} sx={{ flex: '1 1 220px' }} />
          <Button type="submit" variant="contained" disabled={busy || !isMcName(watch('mcName')) || !!formState.errors.mcName} sx={{ mt: 0.25 }}>
            {linked ? t('profile.change') : t('profile.link')}
          </Button>
        </Box>
        <ActionAlert result={result} testId="link-result" />
      </CardContent>
    </Card>
  );
}
