import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ShowLink } from '../lists.tsx';

/** The back-office resource whose show page an audited entity has, where it has one. */
const pages: Record<string, string> = { user: 'users', game: 'staffGames', payment: 'payments', definition: 'definitions', promoCode: 'promoCodes' };

/** What an audit row changed: its kind, and a link to it when the back office shows it. */
export function EntityLink({ entity, id, name }: { entity: string; id: string; name: string | null }) {
  const { t } = useTranslation('staff');
  const label = t(`audit.entities.${entity}`, entity);
  const resource = pages[entity];
  // Its name when it has one; a long id is cut, in full on hover.
  const shown = name ?? (id.length > 12 ? `${id.slice(0, 8)}…` : id);
  return (
    <>
      {label}{' '}
      {resource ? (
        <ShowLink resource={resource} id={id}>
          {shown}
        </ShowLink>
      ) : (
        <Typography component="span" variant="body2" sx={{ fontFamily: name ? undefined : 'monospace' }} title={id}>
          {shown}
        </Typography>
      )}
    </>
  );
}
