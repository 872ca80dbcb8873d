import { Box, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** The BlockHost logo and name, linking home; `compact` drops the name on phones. */
export function Brand({ to, color, compact }: { to: string; color?: string; compact?: boolean }) {
  return (
    <Box component={RouterLink} to={to} aria-label="BlockHost" sx={{ display: 'flex', alignItems: 'center', gap: 1, textDecoration: 'none', color: color ?? 'primary.main', flexShrink: 0 }}>
      <Box component="img" src="/favicon.svg" alt="" width={32} height={32} />
      <Typography component="span" sx={{ fontWeight: 800, fontSize: '1.25rem', letterSpacing: '.02em', display: compact ? { xs: 'none', sm: 'inline' } : undefined }}>
        BlockHost
      </Typography>
    </Box>
  );
}
