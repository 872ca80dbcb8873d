import { IconButton } from '@mui/material';
import { DarkMode as DarkModeIcon } from '@mui/icons-material';
import { LightMode as LightModeIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from './theme.tsx';

export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggle } = useThemeMode();
  const label = mode === 'light' ? t('theme.toDark') : t('theme.toLight');
  return (
    <IconButton color="inherit" onClick={toggle} aria-label={label} title={label} data-testid="theme-toggle">
      {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
    </IconButton>
  );
}
