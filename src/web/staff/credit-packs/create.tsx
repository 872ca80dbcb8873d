import type { HttpError } from '@refinedev/core';
import { Create } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CreditPack } from '../../../contract/credit-packs.ts';
import { CreditPackFields, emptyPack, toPricingRequest, type CreditPackValues } from './CreditPackForm.tsx';
import { BackButton, ViewTitle } from '../common.tsx';

/** A new credit pack, on sale at once. */
export function CreditPackCreate() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, watch, refineCore } = useForm<CreditPack, HttpError, CreditPackValues>({
    defaultValues: emptyPack,
    refineCoreProps: { resource: 'creditPacks', action: 'create', redirect: 'list' },
  });
  const submit = handleSubmit((v) => refineCore.onFinish(toPricingRequest(v)).catch(() => {}));
  return (
    <Create
      goBack={<BackButton />}
      title={<ViewTitle>{t('creditPacks.titles.create')}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
    >
      <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <CreditPackFields control={control} currency={watch('currency')} values={watch()} />
      </form>
    </Create>
  );
}
