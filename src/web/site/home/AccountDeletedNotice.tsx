import { useState } from 'react';
import { Alert, Container } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { takeAccountDeleted } from '../../app/accountDeleted.ts';
import { useSession } from '../../app/auth.tsx';

/**
 * Said on the home page the person lands on after deleting their account: it is gone, and how many
 * credits went with it. Read once signed out, on the page the provider's sign-out comes back to
 * (the app's own home page, shown a moment before, still has the session).
 */
export function AccountDeletedNotice() {
  const { t } = useTranslation('site');
  const { status } = useSession();
  const [credits, setCredits] = useState(() => (status === 'unauthenticated' ? takeAccountDeleted() : null));
  if (credits === null) return null;
  return (
    <Container maxWidth="md" sx={{ mt: 3 }}>
      <Alert severity="success" onClose={() => setCredits(null)} data-testid="account-deleted-notice">
        {t('accountDeleted', { count: credits })}
      </Alert>
    </Container>
  );
}
