import type { HttpError } from '@refinedev/core';
import { Create } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SubscriptionPlan } from '../../../contract/subscriptions.ts';
import { PlanFields, emptyPlan, type PlanValues } from './PlanForm.tsx';
import { BackButton, ViewTitle } from '../common.tsx';

/** A new subscription plan, offered at once. */
export function PlanCreate() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, watch, refineCore } = useForm<SubscriptionPlan, HttpError, PlanValues>({
    defaultValues: emptyPlan,
    refineCoreProps: { resource: 'plans', action: 'create', redirect: 'list' },
  });
  return (
    <Create goBack={<BackButton />} title={<ViewTitle>{t('plans.titles.create')}</ViewTitle>} isLoading={refineCore.formLoading} saveButtonProps={saveButtonProps}>
      <form onSubmit={saveButtonProps.onClick} noValidate autoComplete="off">
        <PlanFields control={control} currency={watch('currency')} />
      </form>
    </Create>
  );
}
