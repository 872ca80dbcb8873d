import { Box, Container, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';

/** Footer links of SPEC.md §2 and the disclaimer. */
export function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const links = [
    ['/', 'nav.home'],
    ['/contact', 'footer.contact'],
    ['/about', 'footer.about'],
    ['/legal', 'footer.legal'],
    ['/cgu', 'footer.cgu'],
    ['/cgv', 'footer.cgv'],
  ] as const;
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 4, mt: 6, bgcolor: 'background.paper' }}>
      <Container maxWidth="lg">
        <Box component="nav" aria-label={t('footer.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mb: 2 }}>
          {links.map(([path, key]) => (
            <Link key={path} component={RouterLink} to={to(path)} color="text.primary" underline="hover">
              {t(key)}
            </Link>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('footer.disclaimer')}
        </Typography>
      </Container>
    </Box>
  );
}
