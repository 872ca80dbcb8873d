import type { HttpError } from '@refinedev/core';
import { Create } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../../contract/promocodes.ts';
import { ApiError } from '../../app/api.ts';
import { PromoFields, emptyPromo, toCreateRequest, type PromoValues } from './PromoForm.tsx';
import { BackButton, ViewTitle } from '../common.tsx';

/** A new promo code; a code that exists already is said so on its field. */
export function PromoCreate() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, watch, setError, refineCore } = useForm<PromoCode, HttpError, PromoValues>({
    defaultValues: emptyPromo,
    refineCoreProps: { resource: 'promoCodes', action: 'create', redirect: 'list' },
  });
  const submit = handleSubmit((v) =>
    refineCore.onFinish(toCreateRequest(v)).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 409) setError('code', { message: t('promoCodes.duplicate') });
    }),
  );
  return (
    <Create
      goBack={<BackButton />}
      title={<ViewTitle>{t('promoCodes.titles.create')}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
    >
      <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <PromoFields control={control} creating kind={watch('kind')} />
      </form>
    </Create>
  );
}
