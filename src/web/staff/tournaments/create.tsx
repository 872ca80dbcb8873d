import type { HttpError } from '@refinedev/core';
import { Create } from '@refinedev/mui';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Tournament } from '../../../contract/tournaments.ts';
import { ApiError } from '../../app/api.ts';
import { BackButton, ViewTitle } from '../common.tsx';
import { emptyTournament, toRequest, TournamentFields, type TournamentValues } from './TournamentForm.tsx';

/** A new tournament; an address taken already is said so on its field. */
export function TournamentCreate() {
  const { t } = useTranslation('staff');
  const { control, saveButtonProps, handleSubmit, setError, refineCore } = useForm<Tournament, HttpError, TournamentValues>({
    defaultValues: emptyTournament,
    refineCoreProps: { resource: 'tournaments', action: 'create', redirect: 'show' },
  });
  const submit = handleSubmit((v) =>
    refineCore.onFinish(toRequest(v)).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 409) setError('slug', { message: t('tournaments.slugTaken') });
    }),
  );
  return (
    <Create
      goBack={<BackButton />}
      title={<ViewTitle>{t('tournaments.titles.create')}</ViewTitle>}
      isLoading={refineCore.formLoading}
      saveButtonProps={{ ...saveButtonProps, onClick: (e) => void submit(e) }}
    >
      <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <TournamentFields control={control} />
      </form>
    </Create>
  );
}
