import { useState } from 'react';
import { Divider, Stack } from '@mui/material';
import { useGo, useNotification, type HttpError } from '@refinedev/core';
import { Create } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import { errorText } from '../../app/api.ts';
import { DefinitionFields, emptyDefinition, toRequest, type DefinitionValues } from './DefinitionForm.tsx';
import { ImageInput, useImageUpload } from './ImageInput.tsx';
import { BackButton, ViewTitle } from '../common.tsx';

/**
 * A new definition: its texts, settings and image (sent once the definition exists); then its
 * edit page, where its packages are added.
 */
export function DefinitionCreate() {
  const { t } = useTranslation('staff');
  const go = useGo();
  const { open } = useNotification();
  const [file, setFile] = useState<File | null>(null);
  const uploadImage = useImageUpload();
  const {
    control,
    saveButtonProps,
    handleSubmit,
    refineCore: { onFinish, formLoading },
  } = useForm<GameDefinition, HttpError, DefinitionValues>({
    defaultValues: emptyDefinition,
    refineCoreProps: {
      resource: 'definitions',
      action: 'create',
      redirect: false,
      onMutationSuccess: async ({ data }) => {
        if (file) {
          try {
            await uploadImage(data.id, file);
          } catch (err) {
            open?.({ type: 'error', message: t('definitions.image.uploadFailed'), description: errorText(err) });
          }
        }
        go({ to: `/dashboard/staff/definitions/edit/${data.id}`, type: 'replace' });
      },
    },
  });
  const submit = handleSubmit((values) => onFinish(toRequest(values)).catch(() => {}));
  return (
    <Create goBack={<BackButton />} title={<ViewTitle>{t('definitions.titles.create')}</ViewTitle>} isLoading={formLoading} saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}>
      <Stack component="form" spacing={3} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <DefinitionFields control={control} />
        <Divider />
        <ImageInput value={null} onChange={() => setFile(null)} onFile={setFile} />
      </Stack>
    </Create>
  );
}
