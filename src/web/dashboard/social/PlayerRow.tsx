import type { ReactNode } from 'react';
import { Box, TableCell, TableRow, Typography } from '@mui/material';
import { FALLBACK_NAME, McHead } from '../../ui/McHead.tsx';

/** A player as the tables show them: head, platform name, Minecraft name (or 'Unknow'). */
export function PlayerCell({ name, mcUuid, mcName }: { name: string | null; mcUuid: string | null; mcName: string | null }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
      <McHead uuid={mcUuid} name={mcName} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
          {name ?? mcName ?? FALLBACK_NAME}
        </Typography>
        {name !== null && (
          <Typography variant="caption" color="text.secondary" noWrap sx={{ display: 'block' }}>
            {mcName ?? FALLBACK_NAME}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/** One row: the player, then the actions at the far end. */
export function ActionRow({ testId, children, actions }: { testId?: string; children: ReactNode; actions: ReactNode }) {
  return (
    <TableRow data-testid={testId}>
      <TableCell sx={{ pl: 0, maxWidth: 0, width: '100%' }}>{children}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: 0 }}>
        {actions}
      </TableCell>
    </TableRow>
  );
}
