import { Alert } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CreditPack } from '../../../contract/credit-packs.ts';
import { useLocalized } from '../../ui/format.ts';
import { BackButton, ErrorAlert, ReadOnly, ViewTitle, useReadOnly } from '../common.tsx';
import { CreditPackFields, emptyPack, toPricingRequest, type CreditPackValues } from './CreditPackForm.tsx';

/** A pack's new terms; payments made keep what they paid. */
export function CreditPackEdit() {
  const { t } = useTranslation('staff');
  const localized = useLocalized();
  const { control, saveButtonProps, handleSubmit, watch, refineCore } = useForm<CreditPack, HttpError, CreditPackValues>({
    defaultValues: emptyPack,
    refineCoreProps: { resource: 'creditPacks', action: 'edit', redirect: 'list' },
  });
  const pack = refineCore.query?.data?.data;
  const { readOnly, footerButtons } = useReadOnly('creditPacks');
  const submit = handleSubmit((v) => refineCore.onFinish(toPricingRequest(v)).catch(() => {}));
  return (
    <Edit
      goBack={<BackButton />}
      title={<ViewTitle>{t('creditPacks.titles.edit', { name: pack?.label ? localized(pack.label) : (pack?.credits ?? '') })}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
      canDelete={false}
      footerButtons={footerButtons}
    >
      <ErrorAlert error={refineCore.query?.error} />
      {pack?.archived && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('creditPacks.archivedNote')}
        </Alert>
      )}
      <ReadOnly readOnly={readOnly}>
        <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
          <CreditPackFields control={control} currency={watch('currency')} values={watch()} />
        </form>
      </ReadOnly>
    </Edit>
  );
}
