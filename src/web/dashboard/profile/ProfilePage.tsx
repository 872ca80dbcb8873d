import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { MinecraftCard } from './MinecraftCard.tsx';
import { PreferencesCard } from './PreferencesCard.tsx';

/** /dashboard/profil: the linked Minecraft account, the display name, language and theme. */
export function ProfilePage() {
  const { t } = useTranslation('social');
  // The signed-in user the whole app shares: a new link reloads it for every page.
  const me = useCurrentUser();
  // ...and shows here at once, before that reload answers.
  const [linkedUuid, setLinkedUuid] = useState<string | null>(null);
  if (me.status === 'loading') return <PageLoader />;
  if (me.status === 'error')
    return (
      <Alert severity="error" action={<Button onClick={me.reload}>{t('retry', { ns: 'common' })}</Button>}>
        {t('profile.loadError')}: {errorText(me.error)}
      </Alert>
    );
  return (
    <>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('profile.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '7fr 5fr' }, alignItems: 'start' }}>
        <MinecraftCard
          mcUuid={linkedUuid ?? me.data.mcUuid}
          onLinked={(link) => {
            setLinkedUuid(link.mcUuid);
            me.reload();
          }}
        />
        <Stack spacing={2}>
          <Card>
            <CardContent>
              <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
                {t('profile.account')}
              </Typography>
              <TextField
                fullWidth
                size="small"
                label={t('profile.displayName')}
                value={me.data.name}
                helperText={t('profile.displayNameHelp')}
                slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'display-name' } }}
              />
            </CardContent>
          </Card>
          <PreferencesCard />
        </Stack>
      </Box>
    </>
  );
}
