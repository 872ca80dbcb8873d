import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Chip, Container, Rating, Typography, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameStatus, LocalizedText } from '../../../contract/games.ts';
import { ApiError } from '../../app/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

/** The text of a {fr, en} pair in the current language. */
export function useLocalized() {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  return (text: LocalizedText) => text[lang] || text.fr;
}

/** A readable message for a failed call: the API's detail when it gave one. */
export function useErrorMessage() {
  const { t } = useTranslation('games');
  return (error: unknown) => {
    if (error instanceof ApiError) return error.problem?.detail ?? error.problem?.title ?? t('errors.status', { status: error.status });
    return t('errors.network');
  };
}

/** Public pages bring their own container; inside the dashboard the layout gives one. */
export function PageFrame({ inDashboard, children }: { inDashboard: boolean; children: ReactNode }) {
  if (inDashboard) return <>{children}</>;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      {children}
    </Container>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('games');
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ textAlign: 'center', py: 6, px: 2, border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 2 }}>
      <Typography variant="h4" component="p" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

export function Stars({ average, count }: { average: number | null; count: number }) {
  const { t } = useTranslation('games');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
      <Rating value={average ?? 0} precision={0.5} readOnly size="small" aria-label={average === null ? t('rating.none') : t('rating.label', { average: average.toFixed(1) })} />
      <Typography variant="body2" color="text.secondary">
        {count === 0 ? t('rating.none') : t('rating.count', { count })}
      </Typography>
    </Box>
  );
}

const statusColors: Record<GameStatus, ChipProps['color']> = {
  CREATED: 'default',
  STARTING: 'info',
  RUNNING: 'success',
  STOPPING: 'warning',
  STOPPED: 'default',
  CRASHED: 'error',
  EXPIRED: 'error',
};

export function StatusChip({ status, size = 'small' }: { status: GameStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation('games');
  return <Chip label={t(`status.${status}`)} color={statusColors[status]} size={size} data-testid="game-status" data-status={status} />;
}

/** A yes/no dialog before anything that cannot be undone. */
/** A confirmation to render once per page (`dialog`) and ask with `confirm({...})`. */
export function useConfirm() {
  const [ask, setAsk] = useState<{ title: string; text: string; confirm: string; danger?: boolean; run: () => void } | null>(null);
  const dialog = (
    <ConfirmDialog
      open={ask !== null}
      title={ask?.title ?? ''}
      text={ask?.text ?? ''}
      confirm={ask?.confirm ?? ''}
      danger={ask?.danger ?? false}
      onClose={() => setAsk(null)}
      onConfirm={() => {
        ask?.run();
        setAsk(null);
      }}
    />
  );
  return { confirm: setAsk, dialog };
}

export function formatDate(iso: string, lang: string) {
  return new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : 'fr-FR', { dateStyle: 'medium', timeStyle: 'short' });
}

/** RAM in the current language's units (Go/Mo, GB/MB). */
export function useFormatRam() {
  const { t, i18n } = useTranslation('games');
  return (mb: number) =>
    mb >= 1024 ? t('units.gb', { value: (mb / 1024).toLocaleString(i18n.language, { maximumFractionDigits: 1 }) }) : t('units.mb', { value: mb });
}
