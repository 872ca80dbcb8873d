import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { StaffPayment } from '../../../contract/staff.ts';

const colors: Record<StaffPayment['status'], ChipProps['color']> = { PENDING: 'info', SUCCEEDED: 'success', FAILED: 'error', REFUNDED: 'warning' };

/** A card payment's status at a glance. */
export function PaymentStatusChip({ status }: { status: StaffPayment['status'] }) {
  const { t } = useTranslation('staff');
  return <Chip size="small" color={colors[status]} label={t(`payments.status.${status}`)} data-testid="payment-status" />;
}
