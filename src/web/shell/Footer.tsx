import { Box, Container, IconButton, Link, Typography } from '@mui/material';
import { Instagram as InstagramIcon } from '@mui/icons-material';
import { X as XIcon } from '@mui/icons-material';
import { YouTube as YouTubeIcon } from '@mui/icons-material';
import { Forum as ForumIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAppConfig } from '../app/config.ts';
import { useLocalePath } from '../app/locale.tsx';
import { Brand } from '../ui/Brand.tsx';

const links = [
  ['/', 'nav.home'],
  ['/contact', 'footer.contact'],
  ['/about', 'footer.about'],
  ['/legal', 'footer.legal'],
  ['/cgu', 'footer.cgu'],
  ['/cgv', 'footer.cgv'],
] as const;

/** Footer links and external pages of docs/product.md (The shell), and the disclaimer. */
export function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { social } = useAppConfig();
  const external = [
    ['discord', social.discord, <ForumIcon />],
    ['twitter', social.twitter, <XIcon />],
    ['youtube', social.youtube, <YouTubeIcon />],
    ['instagram', social.instagram, <InstagramIcon />],
  ] as const;
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 5, bgcolor: 'background.paper' }}>
      <Container maxWidth="lg" sx={{ display: 'grid', gap: 3 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
          <Brand to={to('/')} />
          <Box sx={{ display: 'flex', gap: 0.5 }}>
            {external.map(([key, href, icon]) => (
              <IconButton
                key={key}
                component="a"
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t(`footer.social.${key}`)}
                title={t(`footer.social.${key}`)}
                data-testid={`social-${key}`}
              >
                {icon}
              </IconButton>
            ))}
          </Box>
        </Box>
        <Box component="nav" aria-label={t('footer.label')} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 1 }}>
          {links.map(([path, key]) => (
            <Link key={path} component={RouterLink} to={to(path)} color="text.primary" underline="hover">
              {t(key)}
            </Link>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" data-testid="disclaimer">
          {t('footer.disclaimer')}
        </Typography>
      </Container>
    </Box>
  );
}
