import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameStatus } from '../../../contract/values.ts';

const statusColors: Record<GameStatus, ChipProps['color']> = {
  CREATED: 'default',
  STARTING: 'info',
  RUNNING: 'success',
  STOPPING: 'warning',
  STOPPED: 'default',
  CRASHED: 'error',
  EXPIRED: 'error',
  SLEEPING: 'secondary',
};

/** A game's status as a coloured chip; `data-status` gives tests the status whatever the language. */
export function StatusChip({ status, size = 'small' }: { status: GameStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation('games');
  return <Chip label={t(`status.${status}`)} color={statusColors[status]} size={size} data-testid="game-status" data-status={status} />;
}
