import { useRef, useState } from 'react';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameSettingsResult, GameSettingsView } from '../../../../contract/settings.ts';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameWrite } from '../useGameCall.ts';

/** The server icon: the one the server list shows, and a new one read from a file, previewed and sent. */
export function IconUpload({ gameId, view }: { gameId: string; view: GameSettingsView }) {
  const { t } = useTranslation('settings');
  const send = useGameWrite<GameSettingsResult>(gameId);
  const { run, busy, result } = useConfirmedAction();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ name: string; url: string } | null>(null);
  const shown = chosen?.url ?? view.icon;

  const choose = (file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setChosen({ name: file.name, url: String(reader.result) });
    reader.readAsDataURL(file);
  };
  const upload = (image: string | null) =>
    void run({
      action: () => send('icon', 'put', { image, restart: false }),
      success: () => {
        setChosen(null);
        return view.running ? t('icon.savedRunning') : t('icon.saved');
      },
      failure: t('icon.failed'),
    });

  return (
    <Card data-testid="icon-card">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 0.5 }}>
          {t('icon.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('icon.help')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Box
            sx={{ width: 64, height: 64, flex: 'none', border: 1, borderColor: 'divider', borderRadius: 1, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', overflow: 'hidden' }}
            data-testid="icon-preview"
          >
            {shown ? (
              <img src={shown} alt={t('icon.preview')} width={64} height={64} style={{ imageRendering: 'pixelated', objectFit: 'cover' }} />
            ) : (
              <Typography variant="caption" color="text.secondary">
                {t('icon.none')}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <input ref={input} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden aria-label={t('icon.choose')} onChange={(e) => choose(e.target.files?.[0])} />
            <Button variant="outlined" disabled={busy} onClick={() => input.current?.click()}>
              {t('icon.choose')}
            </Button>
            {chosen && (
              <Button variant="contained" disabled={busy} onClick={() => upload(chosen.url)}>
                {t('icon.upload')}
              </Button>
            )}
            {!chosen && view.icon && (
              <Button disabled={busy} onClick={() => upload(null)}>
                {t('icon.remove')}
              </Button>
            )}
          </Box>
        </Box>
        {chosen && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
            {t('icon.chosen', { name: chosen.name })}
          </Typography>
        )}
        <ActionAlert result={result} />
      </CardContent>
    </Card>
  );
}
