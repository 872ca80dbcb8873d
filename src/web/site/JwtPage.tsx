import { useState } from 'react';
import { Alert, Box, Button, Container, Paper, Typography } from '@mui/material';
import { ContentCopy as ContentCopyIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/auth.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';

function claimsOf(token: string): unknown {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
}

/** The decoded claims of the current access token, for support and integrators. */
export default function JwtPage() {
  const { t } = useTranslation('site');
  const session = useSession();
  const [copied, setCopied] = useState(false);
  if (session.status === 'loading') return <PageLoader />;
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h1" sx={{ fontSize: { xs: '2rem', md: '2.4rem' }, mb: 2 }}>
        {t('jwt.title')}
      </Typography>
      {session.accessToken ? (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('jwt.intro')}
          </Typography>
          <Paper variant="outlined" sx={{ p: 2, overflow: 'auto' }}>
            <Box component="pre" data-testid="jwt-claims" sx={{ m: 0, fontSize: '.875rem' }}>
              {JSON.stringify(claimsOf(session.accessToken), null, 2)}
            </Box>
          </Paper>
          <Button sx={{ mt: 2 }} variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void navigator.clipboard.writeText(session.accessToken!).then(() => setCopied(true))}>
            {copied ? t('jwt.copied') : t('jwt.copy')}
          </Button>
        </>
      ) : (
        <Alert
          severity="info"
          action={
            <Button color="inherit" onClick={() => void session.signIn('/jwt')}>
              {t('nav.signIn', { ns: 'common' })}
            </Button>
          }
        >
          {t('jwt.signedOut')}
        </Alert>
      )}
    </Container>
  );
}
