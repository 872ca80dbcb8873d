import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameStatus } from '../../../contract/values.ts';

const colors: Record<GameStatus, ChipProps['color']> = {
  CREATED: 'default',
  STARTING: 'info',
  RUNNING: 'success',
  STOPPING: 'info',
  STOPPED: 'default',
  CRASHED: 'error',
  EXPIRED: 'warning',
  SLEEPING: 'secondary',
};

/** A server's observed status, coloured as a glance needs it (running green, crashed red). */
export function GameStatusChip({ status }: { status: GameStatus }) {
  const { t } = useTranslation('staff');
  return <Chip size="small" color={colors[status]} label={t(`staffGames.status.${status}`)} data-testid="game-status" />;
}
