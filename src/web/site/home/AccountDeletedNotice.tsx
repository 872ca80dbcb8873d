import { useState } from 'react';
import { Alert, Container } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { accountDeleted, forgetAccountDeleted } from '../../app/accountDeleted.ts';

/** Said on the home page the person lands on after deleting their account: it is gone, and how many credits went with it. */
export function AccountDeletedNotice() {
  const { t } = useTranslation('site');
  const [credits, setCredits] = useState(accountDeleted);
  if (credits === null) return null;
  const close = () => {
    forgetAccountDeleted();
    setCredits(null);
  };
  return (
    <Container maxWidth="md" sx={{ mt: 3 }}>
      <Alert severity="success" onClose={close} data-testid="account-deleted-notice">
        {t('accountDeleted', { count: credits })}
      </Alert>
    </Container>
  );
}
