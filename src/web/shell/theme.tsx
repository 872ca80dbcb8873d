import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider, createTheme, type PaletteMode } from '@mui/material';
import { enUS, frFR } from '@mui/material/locale';
import { useTranslation } from 'react-i18next';
import { THEME_KEY } from '../app/constants.ts';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

/**
 * docs/product.md, Constants: primary green, secondary purple; breakpoints 600, 960, 1280, 1920, 2560. MUI's own
 * words (an alert's or a field's Close, Clear and Open buttons, a rating's Empty) in the page's language.
 */
export function makeTheme(mode: PaletteMode, language: string) {
  return createTheme(
    {
      breakpoints: { values: { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } },
      palette: {
        mode,
        primary: mode === 'light' ? { main: '#2e7d32', light: '#60ad5e', dark: '#005005', contrastText: '#ffffff' } : { main: '#66bb6a', contrastText: '#0b1a0c' },
        secondary: mode === 'light' ? { main: '#7b1fa2', contrastText: '#ffffff' } : { main: '#ce93d8', contrastText: '#1a0620' },
        background: mode === 'light' ? { default: '#f6f8f6', paper: '#ffffff' } : { default: '#0f1410', paper: '#1a211b' },
        // MUI's dark red (#f44336) reads at 4.46:1 on the dark paper, under the 4.5 small text needs (an outlined delete button).
        ...(mode === 'dark' ? { error: { main: '#e57373', contrastText: '#1a0606' } } : {}),
      },
      shape: { borderRadius: 10 },
      typography: {
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        h1: { fontWeight: 800, fontSize: '2.6rem', lineHeight: 1.15 },
        h2: { fontWeight: 800, fontSize: '2rem' },
        h3: { fontWeight: 700, fontSize: '1.5rem' },
        h4: { fontWeight: 700, fontSize: '1.25rem' },
        button: { textTransform: 'none', fontWeight: 600 },
      },
      components: {
        // A player who asked their system for less motion gets none: spinners and skeletons stand
        // still, menus and dialogs appear without sliding. MUI leaves this to the app.
        MuiCssBaseline: {
          styleOverrides: {
            '@media (prefers-reduced-motion: reduce)': {
              '*, *::before, *::after': {
                animationDuration: '0.01ms !important',
                animationDelay: '0s !important',
                animationIterationCount: '1 !important',
                transitionDuration: '0.01ms !important',
                transitionDelay: '0s !important',
                scrollBehavior: 'auto !important',
              },
            },
          },
        },
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiCard: { defaultProps: { variant: 'outlined' } },
      },
    },
    language === 'en' ? enUS : frFR,
  );
}

function initialMode(): PaletteMode {
  const applied = document.documentElement.dataset.theme;
  return applied === 'dark' ? 'dark' : 'light';
}

const ThemeModeContext = createContext<{ mode: PaletteMode; toggle: () => void }>({ mode: 'light', toggle: () => {} });
export const useThemeMode = () => useContext(ThemeModeContext);

/** The light or dark theme; boot.js applied the saved one before the first paint, we start from it. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<PaletteMode>(initialMode);
  const { i18n } = useTranslation();
  const value = useMemo(
    () => ({
      mode,
      toggle: () => {
        const next = mode === 'light' ? 'dark' : 'light';
        localStorage.setItem(THEME_KEY, next);
        document.documentElement.dataset.theme = next;
        document.documentElement.style.colorScheme = next;
        document.documentElement.style.backgroundColor = '';
        setMode(next);
      },
    }),
    [mode],
  );
  const theme = useMemo(() => makeTheme(mode, i18n.language), [mode, i18n.language]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}
