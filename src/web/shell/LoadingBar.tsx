import { useEffect, useState } from 'react';
import { Box } from '@mui/material';
import { useBusyCount } from '../app/busy.ts';
import { LOADING_BAR_DURATION_MS, LOADING_BAR_THROTTLE_MS } from '../app/constants.ts';

/** The top loading indicator: appears only when loading lasts over 200 ms, then fills over 2 000 ms. */
export function LoadingBar() {
  const busy = useBusyCount() > 0;
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const show = setTimeout(() => setShown(true), LOADING_BAR_THROTTLE_MS);
    return () => {
      clearTimeout(show);
      setShown(false);
    };
  }, [busy]);
  if (!shown) return null;
  return (
    <Box
      aria-hidden
      data-testid="loading-bar"
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        width: '100%',
        zIndex: (t) => t.zIndex.appBar + 1,
        bgcolor: 'secondary.main',
        transformOrigin: 'left',
        // Fills to 90 % over the 2 000 ms; the bar goes when loading ends.
        '@keyframes loading-bar': { from: { transform: 'scaleX(0)' }, to: { transform: 'scaleX(.9)' } },
        animation: `loading-bar ${LOADING_BAR_DURATION_MS}ms ease-out forwards`,
      }}
    />
  );
}
