import { useState } from 'react';
import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Game } from '../../../../contract/games.ts';
import { formatDate } from '../../../ui/format.ts';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameWrite } from '../useGameCall.ts';

/**
 * The owner's change of the game's address name: at most once a day, which the card says, with
 * the time of the next change while it must wait. The API checks the name (form, reserved,
 * taken) and its refusal shows under the field.
 */
export function AddressNameCard({ game }: { game: Game }) {
  const { t, i18n } = useTranslation('settings');
  const [name, setName] = useState(game.addressName);
  // The page's time when it opened: a wait that ends while the page stays open ends at the next visit.
  const [now] = useState(() => Date.now());
  const send = useGameWrite<object>(game.id);
  const { run, busy, result, dialog } = useConfirmedAction();
  const next = game.addressNameNextChange && Date.parse(game.addressNameNextChange) > now ? game.addressNameNextChange : null;
  const wanted = name.trim();

  const save = () =>
    void run({
      confirm: { title: t('addressName.confirmTitle', { name: wanted }), text: t('addressName.confirmText', { old: game.addressName }), confirm: t('addressName.confirm') },
      action: () => send('address-name', 'put', { addressName: wanted }),
      success: t('addressName.done', { name: wanted }),
      failure: t('addressName.failed'),
    });

  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
          {t('addressName.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {next ? t('addressName.waitUntil', { at: formatDate(next, i18n.language) }) : t('addressName.onceADay')}
        </Typography>
        <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), save())} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <TextField
            label={t('addressName.label')}
            value={name}
            onChange={(e) => setName(e.target.value.toLowerCase())}
            helperText={t('addressName.help')}
            slotProps={{ htmlInput: { maxLength: 32, spellCheck: false, autoCapitalize: 'none' } }}
            sx={{ flex: '1 1 16rem' }}
            disabled={!!next}
          />
          <Button type="submit" variant="contained" disabled={busy || !!next || wanted === '' || wanted === game.addressName} sx={{ mt: 1 }}>
            {t('addressName.save')}
          </Button>
        </Box>
        <ActionAlert result={result} />
      </CardContent>
      {dialog}
    </Card>
  );
}
