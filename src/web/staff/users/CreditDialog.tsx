import { TextField } from '@mui/material';
import { useInvalidate } from '@refinedev/core';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { StaffUser, UserCreditAdded } from '../../../contract/staff.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';

interface CreditValues {
  userId: string;
  amount: number | null;
  reason: string;
}

/**
 * Adds credits to a user, or takes some back with a negative amount (asked again first), with the
 * reason the ledger and the audit log keep. The balance never goes below zero: the API's 409 says so.
 */
export function CreditDialog({ user, open, onClose }: { user: StaffUser; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const invalidate = useInvalidate();
  return (
    <ActionDialog<CreditValues, Static<typeof UserCreditAdded>>
      open={open}
      onClose={onClose}
      testId="credit-dialog"
      title={t('users.credit.title', { name: user.name })}
      text={t('users.credit.text', { balance: user.balance })}
      url="/v1/user/credit"
      defaultValues={{ userId: user.id, amount: null, reason: '' }}
      submitLabel={t('users.credit.submit')}
      confirmation={(values) =>
        (values.amount ?? 0) < 0
          ? { title: t('users.credit.confirmTitle'), text: t('users.credit.confirmText', { count: -(values.amount ?? 0), name: user.name }), confirm: t('users.credit.confirm') }
          : null
      }
      refusal={(err) => (err.status === 409 ? t('users.credit.belowZero', { balance: user.balance }) : null)}
      success={(result) => t('users.credit.done', { name: user.name, balance: result.balance })}
      onDone={() => {
        void invalidate({ resource: 'users', invalidates: ['list', 'detail'], id: user.id });
        void invalidate({ resource: 'staffTransactions', invalidates: ['list'] });
        void invalidate({ resource: 'audit', invalidates: ['list'] });
      }}
      fields={(control) => (
        <>
          <Controller
            control={control}
            name="amount"
            rules={{ validate: (v) => (v !== null && Number.isInteger(v) && v !== 0) || t('users.credit.amountInvalid') }}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                type="number"
                value={field.value ?? ''}
                onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
                label={t('users.credit.amount')}
                required
                error={!!fieldState.error}
                helperText={fieldState.error?.message ?? t('users.credit.amountHelp')}
                slotProps={{ htmlInput: { step: 1, 'data-testid': 'credit-amount' } }}
                fullWidth
              />
            )}
          />
          <ReasonInput control={control} />
        </>
      )}
    />
  );
}
