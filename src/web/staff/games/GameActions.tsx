import { useTranslation } from 'react-i18next';
import type { StaffGame } from '../../../contract/games.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';
import { formatDate } from '../../ui/format.ts';
import { NumberInput } from '../fields.tsx';

/** Stops a server cleanly, as its owner's stop does, after asking; the owner is told why. */
export function StopDialog({ game, onClose, onDone }: { game: StaffGame; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('staff');
  return (
    <ActionDialog<{ reason: string }, StaffGame>
      open
      onClose={onClose}
      testId="stop-dialog"
      title={t('staffGames.stop.title', { name: game.name })}
      text={t('staffGames.stop.text')}
      url={`/v1/staff/games/${encodeURIComponent(game.id)}/stop`}
      defaultValues={{ reason: '' }}
      submitLabel={t('staffGames.stop.submit')}
      danger
      confirmation={() => ({ title: t('staffGames.stop.confirmTitle'), text: t('staffGames.stop.confirmText', { name: game.name, owner: game.ownerName }), confirm: t('staffGames.stop.submit') })}
      success={() => t('staffGames.stop.done', { name: game.name })}
      onDone={onDone}
      fields={(control) => <ReasonInput control={control} />}
    />
  );
}

/** Deletes a server as its owner would (nothing refunded, its last backup kept for the owner), after asking; the owner is told why. */
export function DeleteDialog({ game, onClose, onDone }: { game: StaffGame; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('staff');
  return (
    <ActionDialog<{ reason: string }, StaffGame>
      open
      onClose={onClose}
      testId="delete-dialog"
      title={t('staffGames.delete.title', { name: game.name })}
      text={t('staffGames.delete.text')}
      url={`/v1/staff/games/${encodeURIComponent(game.id)}/delete`}
      defaultValues={{ reason: '' }}
      submitLabel={t('staffGames.delete.submit')}
      danger
      confirmation={() => ({
        title: t('staffGames.delete.confirmTitle'),
        text: t('staffGames.delete.confirmText', { name: game.name, owner: game.ownerName }),
        confirm: t('staffGames.delete.submit'),
      })}
      success={() => t('staffGames.delete.done', { name: game.name })}
      onDone={onDone}
      fields={(control) => <ReasonInput control={control} />}
    />
  );
}

/** Gives a server 1 to 366 free days: its period end (and its opened renewal) move on; the owner is told why. */
export function ExtendDialog({ game, onClose, onDone }: { game: StaffGame; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation('staff');
  return (
    <ActionDialog<{ days: number | null; reason: string }, StaffGame>
      open
      onClose={onClose}
      testId="extend-dialog"
      title={t('staffGames.extend.title', { name: game.name })}
      text={t('staffGames.extend.text', { date: formatDate(game.periodEnd, i18n.language) })}
      url={`/v1/staff/games/${encodeURIComponent(game.id)}/extend`}
      defaultValues={{ days: 7, reason: '' }}
      submitLabel={t('staffGames.extend.submit')}
      success={(result) => t('staffGames.extend.done', { name: game.name, date: formatDate(result.periodEnd, i18n.language) })}
      onDone={onDone}
      fields={(control) => (
        <>
          <NumberInput
            control={control}
            name="days"
            label={t('staffGames.extend.days')}
            help={t('staffGames.extend.daysHelp')}
            required
            slotProps={{ htmlInput: { min: 1, max: 366, step: 1, 'data-testid': 'extend-days' } }}
          />
          <ReasonInput control={control} />
        </>
      )}
    />
  );
}
