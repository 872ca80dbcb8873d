import { ApiError } from '../../app/api.ts';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';

/**
 * The delete button's confirmation and outcome: a definition games were made from cannot go (409),
 * and says so in plain words, with the way out (unpublish it).
 */
export function useDeleteDefinition(d: GameDefinition | undefined) {
  const { t, i18n } = useTranslation('staff');
  const name = d?.name[i18n.language === 'en' ? 'en' : 'fr'] ?? '';
  return {
    confirmTitle: t('definitions.delete.title', { name }),
    confirmOkText: t('buttons.delete'),
    confirmCancelText: t('buttons.cancel'),
    successNotification: { message: t('definitions.delete.done', { name }), type: 'success' as const },
    errorNotification: (error?: unknown) =>
      error instanceof ApiError && error.status === 409
        ? { message: t('definitions.delete.inUse'), type: 'error' as const }
        : { message: t('definitions.delete.failed'), description: error instanceof Error ? error.message : undefined, type: 'error' as const },
  };
}
