import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSwitchLanguage } from '../app/locale.tsx';

/** Switches between French and English on the same page. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const switchLanguage = useSwitchLanguage();
  const other = i18n.language === 'en' ? 'fr' : 'en';
  return (
    <Button color="inherit" onClick={() => switchLanguage(other)} aria-label={t('language.switch')} title={t('language.switch')} lang={other} sx={{ minWidth: 0, px: 1, fontWeight: 700 }}>
      {other.toUpperCase()}
    </Button>
  );
}
