import { useState, type FormEvent } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { DarkMode as DarkModeIcon, LightMode as LightModeIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import type { McLink, MinecraftAccountInfo, User } from '../../../contract/user.ts';
import { apiFetch, errorText } from '../../app/api.ts';
import { languages, type Language } from '../../app/i18n.ts';
import { useSwitchLanguage } from '../../app/locale.tsx';
import { useFetch } from '../../app/useFetch.ts';
import { useThemeMode } from '../../shell/theme.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { useSubmit } from '../../ui/useSubmit.ts';
import { FALLBACK_HEAD, FALLBACK_NAME, mcNamePattern } from '../social/common.tsx';

/** /dashboard/profil: the linked Minecraft account, the display name, language and theme. */
export function ProfilePage() {
  const { t } = useTranslation('social');
  const me = useFetch<User>('/v1/user');
  // A new link shows at once, without reloading the whole page (and losing its message).
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
        <MinecraftCard mcUuid={linkedUuid ?? me.data.mcUuid} onLinked={setLinkedUuid} />
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

function MinecraftCard({ mcUuid, onLinked }: { mcUuid: string | null; onLinked: (uuid: string) => void }) {
  const { t } = useTranslation('social');
  const account = useFetch<MinecraftAccountInfo>(mcUuid ? `/v1/user/minecraft/${mcUuid}` : null);
  const [name, setName] = useState('');
  const { busy, result, submit: run } = useSubmit();
  const invalid = name !== '' && !mcNamePattern.test(name.trim());
  const linked = mcUuid !== null;
  const head = linked && account.status === 'done' ? `data:image/png;base64,${account.data.head}` : FALLBACK_HEAD;
  const shownName = linked && account.status === 'done' ? account.data.name : FALLBACK_NAME;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const mcName = name.trim();
    if (!mcNamePattern.test(mcName)) return;
    await run(async () => {
      const link = await apiFetch<McLink>('/v1/user/mcuuid', { method: 'POST', json: { mcName } });
      setName('');
      onLinked(link.mcUuid);
      return t('profile.linked', { name: link.mcName });
    }, t('profile.linkFailed'));
  };
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
              src={head}
              alt={shownName}
              data-testid="profile-head"
              data-linked={linked && account.status === 'done' ? 'true' : 'false'}
              sx={{ width: 96, height: 96, borderRadius: 2, '& img': { imageRendering: 'pixelated' } }}
            />
            {linked && account.status === 'loading' && (
              <CircularProgress size={32} aria-label={t('loading', { ns: 'common' })} sx={{ position: 'absolute', top: 32, left: 32 }} />
            )}
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h3" component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="profile-mc-name">
              {shownName}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {linked ? t('profile.linkedState') : t('profile.notLinked')}
            </Typography>
          </Box>
        </Box>
        {account.status === 'error' && (
          <Alert severity="warning" sx={{ mb: 2 }} action={<Button onClick={account.reload}>{t('retry', { ns: 'common' })}</Button>}>
            {t('profile.headError')}: {errorText(account.error)}
          </Alert>
        )}
        <Box component="form" onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <TextField
            size="small"
            label={t('profile.mcName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={invalid}
            helperText={invalid ? t('invalidName') : t('profile.mcNameHelp')}
            slotProps={{ htmlInput: { maxLength: 16, autoComplete: 'off' } }}
            sx={{ flex: '1 1 220px' }}
          />
          <Button type="submit" variant="contained" disabled={busy || name.trim() === '' || invalid} sx={{ mt: 0.25 }}>
            {linked ? t('profile.change') : t('profile.link')}
          </Button>
        </Box>
        {result && (
          <Alert severity={result.severity} sx={{ mt: 1.5 }} data-testid="link-result">
            {result.text}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

function PreferencesCard() {
  const { t, i18n } = useTranslation('social');
  const switchLanguage = useSwitchLanguage();
  const theme = useThemeMode();
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
          {t('profile.preferences')}
        </Typography>
        <Typography id="pref-language" variant="subtitle2" sx={{ mb: 0.5 }}>
          {t('profile.language')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={i18n.language}
          onChange={(_, lang: Language | null) => lang && switchLanguage(lang)}
          aria-labelledby="pref-language"
          sx={{ mb: 2 }}
        >
          {languages.map((lang) => (
            <ToggleButton key={lang} value={lang} lang={lang} sx={{ px: 2 }}>
              {t(`profile.languages.${lang}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography id="pref-theme" variant="subtitle2" sx={{ mb: 0.5 }}>
          {t('profile.theme')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={theme.mode}
          onChange={(_, mode: string | null) => mode && mode !== theme.mode && theme.toggle()}
          aria-labelledby="pref-theme"
        >
          <ToggleButton value="light" sx={{ px: 2, gap: 1 }}>
            <LightModeIcon fontSize="small" /> {t('profile.themes.light')}
          </ToggleButton>
          <ToggleButton value="dark" sx={{ px: 2, gap: 1 }}>
            <DarkModeIcon fontSize="small" /> {t('profile.themes.dark')}
          </ToggleButton>
        </ToggleButtonGroup>
      </CardContent>
    </Card>
  );
}
