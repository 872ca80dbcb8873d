import { Alert } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SubscriptionPlan } from '../../../contract/subscriptions.ts';
import { BackButton, ErrorAlert, ViewTitle, ReadOnly, useReadOnly } from '../common.tsx';
import { PlanFields, emptyPlan, type PlanValues } from './PlanForm.tsx';

/** A plan's new names, price or credits; subscribers pay the new price from their next period. */
export function PlanEdit() {
  const { t, i18n } = useTranslation('staff');
  const { control, saveButtonProps, watch, refineCore } = useForm<SubscriptionPlan, HttpError, PlanValues>({
    defaultValues: emptyPlan,
    refineCoreProps: { resource: 'plans', action: 'edit', redirect: 'list' },
  });
  const plan = refineCore.query?.data?.data;
  const { readOnly, footerButtons } = useReadOnly('plans');
  return (
    <Edit
      goBack={<BackButton />}
      title={<ViewTitle>{t('plans.titles.edit', { name: plan?.name[i18n.language === 'en' ? 'en' : 'fr'] ?? '' })}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={saveButtonProps}
      canDelete={false}
      footerButtons={footerButtons}
    >
      <ErrorAlert error={refineCore.query?.error} />
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('plans.editNote')}
      </Alert>
      <ReadOnly readOnly={readOnly}>
        <form onSubmit={saveButtonProps.onClick} noValidate autoComplete="off">
          <PlanFields control={control} currency={watch('currency')} />
        </form>
      </ReadOnly>
    </Edit>
  );
}
