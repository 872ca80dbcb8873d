import { Alert, AlertTitle, Box } from '@mui/material';
import { useCustom, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { InvoiceSeller } from '../../contract/invoices.ts';
import type { ApiError } from '../app/api.ts';
import { useRoles } from '../app/access.ts';

/**
 * Warns staff, on every back-office page, while invoices name the made-up seller address: a customer
 * must never receive one, and only the server's configuration (INVOICE_SELLER_*) can change it.
 */
export function SellerPlaceholderAlert() {
  const { t } = useTranslation('staff');
  const isStaff = useRoles().includes('staff');
  const { result } = useCustom<InvoiceSeller & BaseRecord, ApiError>({ url: '/v1/staff/invoice-seller', method: 'get', queryOptions: { enabled: isStaff } });
  const seller = result.data;
  // Nothing to say while it loads or if it cannot be read: the warning is advice, not the page.
  if (!isStaff || !seller?.placeholder) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="seller-placeholder">
      <AlertTitle>{t('sellerPlaceholder.title')}</AlertTitle>
      {t('sellerPlaceholder.text')}
      <Box component="span" sx={{ display: 'block', mt: 0.5, whiteSpace: 'pre-line', fontStyle: 'italic' }}>
        {`${seller.name}\n${seller.address}`}
      </Box>
      <Box component="span" sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}>
        {t('sellerPlaceholder.fix')}
      </Box>
    </Alert>
  );
}
