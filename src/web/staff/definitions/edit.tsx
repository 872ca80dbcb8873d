import { Divider, Stack } from '@mui/material';
import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import { BackButton, ErrorAlert, ReadOnly, ViewTitle, useReadOnly } from '../common.tsx';
import { DefinitionFields, emptyDefinition, toRequest, type DefinitionValues } from './DefinitionForm.tsx';
import { ImageInput } from './ImageInput.tsx';
import { PackagesEditor } from './PackagesEditor.tsx';
import { DeleteDefinition } from './DeleteDefinition.tsx';

/** A definition's texts, settings, published flag and image, then its packages, each saved on its own. */
export function DefinitionEdit() {
  const { t, i18n } = useTranslation('staff');
  const {
    control,
    saveButtonProps,
    handleSubmit,
    refineCore: { onFinish, formLoading, query, id },
  } = useForm<GameDefinition, HttpError, DefinitionValues>({
    defaultValues: emptyDefinition,
    refineCoreProps: { resource: 'definitions', action: 'edit', redirect: 'show' },
  });
  const d = query?.data?.data;
  const submit = handleSubmit((values) => onFinish(toRequest(values)).catch(() => {}));
  const { readOnly, footerButtons } = useReadOnly('definitions');
  return (
    <Stack spacing={3}>
      <Edit
        goBack={<BackButton />}
        title={<ViewTitle>{t('definitions.titles.edit', { name: d?.name[i18n.language === 'en' ? 'en' : 'fr'] ?? '' })}</ViewTitle>}
        isLoading={formLoading}
        saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
        footerButtons={
          footerButtons ??
          (({ defaultButtons }) => (
            <>
              <DeleteDefinition definition={d} variant="outlined" />
              {defaultButtons}
            </>
          ))
        }
      >
        <ErrorAlert error={query?.error} />
        <ReadOnly readOnly={readOnly}>
          <Stack component="form" spacing={3} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
            <DefinitionFields control={control} />
            <Divider />
            {!readOnly && <Controller control={control} name="image" render={({ field }) => <ImageInput value={field.value ?? null} onChange={field.onChange} definitionId={String(id)} />} />}
          </Stack>
        </ReadOnly>
      </Edit>
      {d && <PackagesEditor key={d.id} definitionId={d.id} packages={d.packages} />}
    </Stack>
  );
}
