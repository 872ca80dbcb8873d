import type { ReactNode } from 'react';
import { IconButton, Tooltip, type IconButtonProps } from '@mui/material';

/**
 * An icon button with its short name in a tooltip (`title`) and its full one for screen readers
 * (`aria-label`, naming what it acts on). The span keeps the tooltip working while the button is
 * disabled, which MUI's Tooltip cannot do on a disabled button itself.
 */
export function ActionIcon({ title, children, ...button }: { title: string; children: ReactNode; 'aria-label': string } & Omit<IconButtonProps, 'children' | 'title'>) {
  return (
    <Tooltip title={title}>
      <span>
        <IconButton {...button}>{children}</IconButton>
      </span>
    </Tooltip>
  );
}
