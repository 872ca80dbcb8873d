import { Card, CardContent, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { DarkMode as DarkModeIcon, LightMode as LightModeIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '../../app/i18n.ts';
import { useSwitchLanguage } from '../../app/locale.tsx';
import { useThemeMode } from '../../shell/theme.tsx';

/** The page's language and theme, switched at once (the theme is kept in the browser). */
export function PreferencesCard() {
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
        <ToggleButtonGroup exclusive size="small" value={i18n.language} onChange={(_, lang: Language | null) => lang && switchLanguage(lang)} aria-labelledby="pref-language" sx={{ mb: 2 }}>
          {languages.map((lang) => (
            <ToggleButton key={lang} value={lang} lang={lang} sx={{ px: 2 }}>
              {t(`profile.languages.${lang}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography id="pref-theme" variant="subtitle2" sx={{ mb: 0.5 }}>
          {t('profile.theme')}
        </Typography>
        <ToggleButtonGroup exclusive size="small" value={theme.mode} onChange={(_, mode: string | null) => mode && mode !== theme.mode && theme.toggle()} aria-labelledby="pref-theme">
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
