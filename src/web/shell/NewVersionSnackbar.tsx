import { Button, Snackbar } from '@mui/material';
import { useTranslation } from 'react-i18next';

export default function NewVersionSnackbar() {
  const { t } = useTranslation();
  return (
    <Snackbar
      open
      message={t('newVersion.message')}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      action={
        <Button color="secondary" size="small" onClick={() => location.reload()}>
          {t('newVersion.reload')}
        </Button>
      }
    />
  );
}
