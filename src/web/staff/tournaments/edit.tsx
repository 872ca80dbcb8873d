import type { HttpError } from '@refinedev/core';
import { Edit } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Tournament } from '../../../contract/tournaments.ts';
import { BackButton, ErrorAlert, ReadOnly, useReadOnly, ViewTitle } from '../common.tsx';
import { emptyTournament, toRequest, TournamentFields, type TournamentValues } from './TournamentForm.tsx';

/** A tournament's terms, while it has not started (the API refuses a change after). */
export function TournamentEdit() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, refineCore } = useForm<Tournament, HttpError, TournamentValues>({
    defaultValues: emptyTournament,
    refineCoreProps: { resource: 'tournaments', action: 'edit', redirect: 'show' },
  });
  const submit = handleSubmit((v) => refineCore.onFinish(toRequest(v)).catch(() => {}));
  const { readOnly, footerButtons } = useReadOnly('tournaments');
  return (
    <Edit
      goBack={<BackButton />}
      title={<ViewTitle>{t('tournaments.titles.edit')}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
      canDelete={false}
      footerButtons={footerButtons}
    >
      <ErrorAlert error={refineCore.query?.error} />
      <ReadOnly readOnly={readOnly}>
        <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
          <TournamentFields control={control} />
        </form>
      </ReadOnly>
    </Edit>
  );
}
