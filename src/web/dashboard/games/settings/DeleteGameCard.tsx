import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { DeleteForever as DeleteIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Game } from '../../../../contract/games.ts';
import { useLocalePath } from '../../../app/locale.tsx';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameWrite } from '../useGameCall.ts';

/**
 * The settings tab's danger zone, for the owner alone: deleting the server, once its name is typed
 * in the confirmation, which says that nothing paid is refunded and where its last backup stays.
 */
export function DeleteGameCard({ game }: { game: Game }) {
  const { t } = useTranslation('settings');
  const to = useLocalePath();
  const navigate = useNavigate();
  const send = useGameWrite<null>(game.id);
  const { run, busy, result, dialog } = useConfirmedAction();

  const ask = () =>
    void run({
      confirm: {
        title: t('delete.confirmTitle', { name: game.name }),
        text: t('delete.confirmText'),
        confirm: t('delete.confirm'),
        typed: { label: t('delete.typeName', { name: game.name }), expected: game.name },
      },
      action: (_reason, typed) => send('delete', 'post', { name: typed.trim() }),
      failure: t('delete.failed'),
    }).then((done) => done && navigate(to('/dashboard'), { state: { deleted: game.name } }));

  return (
    <Card variant="outlined" sx={{ borderColor: 'error.main' }} data-testid="danger-zone">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1, color: 'error.main' }}>
          {t('delete.title')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography color="text.secondary" sx={{ flex: '1 1 20rem' }}>
            {t('delete.intro')}
          </Typography>
          <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={ask} disabled={busy}>
            {t('delete.open')}
          </Button>
        </Box>
        <ActionAlert result={result} />
      </CardContent>
      {dialog}
    </Card>
  );
}
