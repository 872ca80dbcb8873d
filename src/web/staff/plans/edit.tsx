import { Alert } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SubscriptionPlan } from '../../../contract/subscriptions.ts';
import { BackButton, ErrorAlert, ViewTitle, ReadOnly, useReadOnly } from '../common.tsx';
import { PlanFields, emptyPlan, toPlanRequest, type PlanValues } from './PlanForm.tsx';

/** A plan's new names, price or credits; subscribers pay the new price from their next period. */
export function PlanEdit() {
  const { t, i18n } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, watch, refineCore } = useForm<SubscriptionPlan, HttpError, PlanValues>({
    defaultValues: emptyPlan,
    refineCoreProps: { resource: 'plans', action: 'edit', redirect: 'list' },
  });
  const plan = refineCore.query?.data?.data;
  const submit = handleSubmit((v) => refineCore.onFinish(toPlanRequest(v) as unknown as PlanValues).catch(() => {}));
  const { readOnly, footerButtons } = useReadOnly('plans');
  return (
    <Edit
      goBack={<BackButton />}
      title={<ViewTitle>{t('plans.titles.edit', { name: plan?.name[i18n.language === 'en' ? 'en' : 'fr'] ?? '' })}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
      canDelete={false}
      footerButtons={footerButtons}
    >
      <ErrorAlert error={refineCore.query?.error} />
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('plans.editNote')}
      </Alert>
      <ReadOnly readOnly={readOnly}>
        <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
          <PlanFields control={control} currency={watch('currency')} />
        </form>
      </ReadOnly>
    </Edit>
  );
}
