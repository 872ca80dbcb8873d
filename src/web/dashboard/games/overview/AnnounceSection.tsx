import { Box, Button, Typography } from '@mui/material';
import { Campaign as CampaignIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { AnnounceResult } from '../../../../contract/games.ts';
import { useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { ResultAlert } from '../ResultAlert.tsx';
import { useGameWrite } from '../useGameCall.ts';

/** Tells the player's friends the server is open, with its address (only while it runs). */
export function AnnounceSection({ gameId, running }: { gameId: string; running: boolean }) {
  const { t } = useTranslation('games');
  const send = useGameWrite<Static<typeof AnnounceResult>>(gameId);
  const { run, busy, result, dismiss } = useConfirmedAction();
  // 429 and 409 carry their reason (when to try again, why not now) in the API's detail.
  const announce = () => void run({ action: () => send('announce', 'post'), success: (answer) => t('friends.announce.done', { count: answer.notified }), failure: t('actionFailed') });
  return (
    <Box component="section" aria-labelledby="friends-announce-title">
      <Typography id="friends-announce-title" variant="subtitle1" component="h3" sx={{ mb: 0.5, fontWeight: 700 }}>
        {t('friends.announce.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {running ? t('friends.announce.help') : t('friends.announce.notRunning')}
      </Typography>
      <Button variant="outlined" startIcon={<CampaignIcon />} disabled={!running || busy} onClick={announce}>
        {t('friends.announce.button')}
      </Button>
      <ResultAlert result={result} onClose={dismiss} />
    </Box>
  );
}
