import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../../contract/promocodes.ts';
import { BackButton, ErrorAlert, ViewTitle, ReadOnly, useReadOnly } from '../common.tsx';
import { PromoFields, emptyPromo, toTerms, type PromoValues } from './PromoForm.tsx';

/** A code's new terms (its name stays); what used it keeps what it got. */
export function PromoEdit() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, watch, refineCore } = useForm<PromoCode, HttpError, PromoValues>({
    defaultValues: emptyPromo,
    refineCoreProps: { resource: 'promoCodes', action: 'edit', redirect: 'show' },
  });
  const submit = handleSubmit((v) => refineCore.onFinish(toTerms(v)).catch(() => {}));
  const { readOnly, footerButtons } = useReadOnly('promoCodes');
  return (
    <Edit
      goBack={<BackButton />}
      title={<ViewTitle>{t('promoCodes.titles.edit', { code: refineCore.id ?? '' })}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
      canDelete={false}
      footerButtons={footerButtons}
    >
      <ErrorAlert error={refineCore.query?.error} />
      <ReadOnly readOnly={readOnly}>
        <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
          <PromoFields control={control} creating={false} kind={watch('kind')} />
        </form>
      </ReadOnly>
    </Edit>
  );
}
