import { useNavigation } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import { ApiError } from '../../app/api.ts';
import { DeleteAction } from '../DeleteAction.tsx';

/**
 * A definition's delete button, then back to the list: a definition games were made from cannot go
 * (409), and says so in plain words, with the way out (unpublish it).
 */
export function DeleteDefinition({ definition, variant }: { definition: GameDefinition | undefined; variant?: 'text' | 'outlined' }) {
  const { t, i18n } = useTranslation('staff');
  const { list } = useNavigation();
  if (!definition) return null;
  const name = definition.name[i18n.language === 'en' ? 'en' : 'fr'];
  return (
    <DeleteAction
      resource="definitions"
      id={definition.id}
      label={t('buttons.delete')}
      title={t('definitions.delete.title', { name })}
      successNotification={{ message: t('definitions.delete.done', { name }), type: 'success' }}
      errorNotification={(error) =>
        error instanceof ApiError && error.status === 409
          ? { message: t('definitions.delete.inUse'), type: 'error' }
          : { message: t('definitions.delete.failed'), description: error instanceof Error ? error.message : undefined, type: 'error' }
      }
      onSuccess={() => list('definitions')}
      variant={variant}
    />
  );
}
