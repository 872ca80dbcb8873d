import { Chip } from '@mui/material';
import { PeopleAlt as PeopleAltIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import type { GameRole } from '../../../../contract/sharing.ts';
import { useSharedGames } from './useSharedGames.ts';

/** Under the title of a game shared with the caller: who shared it and with what role (the role alone until the owner is known). */
export function SharedByChip({ gameId, role }: { gameId: string; role: GameRole }) {
  const { t } = useTranslation('games');
  const { games } = useSharedGames();
  const owner = games?.find((g) => g.id === gameId)?.owner.name;
  const roleName = t(`sharing.roles.${role}.name`);
  return (
    <Chip
      size="small"
      variant="outlined"
      color="primary"
      icon={<PeopleAltIcon />}
      label={owner ? t('sharing.sharedBy', { owner, role: roleName }) : roleName}
      data-testid="shared-by"
      sx={{ mt: 1, maxWidth: '100%' }}
    />
  );
}
