import { useState } from 'react';
import { Alert, IconButton, Snackbar } from '@mui/material';
import { PictureAsPdf as PdfIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { downloadInvoicePdf } from '../../ui/invoicePdf.ts';

/** Downloads an invoice's PDF as `<number>.pdf`, fetched with the staff member's token, in the page's language. */
export function InvoicePdfButton({ id, number }: { id: string; number: string }) {
  const { t, i18n } = useTranslation('staff');
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <IconButton
        aria-label={t('staffInvoices.download', { number })}
        onClick={() => {
          setError(null);
          downloadInvoicePdf(`/v1/staff/invoices/${encodeURIComponent(id)}`, number, i18n.language).catch((err: unknown) => setError(`${t('staffInvoices.pdfError')} ${errorText(err)}`));
        }}
      >
        <PdfIcon />
      </IconButton>
      <Snackbar open={!!error} onClose={() => setError(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      </Snackbar>
    </>
  );
}
