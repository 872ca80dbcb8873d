import { useState } from 'react';
import { Box, Card, CardContent, CardHeader, Chip, CircularProgress, Stack, ToggleButton, ToggleButtonGroup, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { useTranslation } from 'react-i18next';
import type { Usage, UsageEvent, UsagePoint } from '../../../../contract/usage.ts';
import { formatDate } from '../../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { useGameRead } from '../useGameCall.ts';

type UsageWindow = Usage['window'];
type Kind = UsageEvent['kind'];
type BackupKind = 'MANUAL' | 'NIGHTLY' | 'AUTOMATIC';
const windows: UsageWindow[] = ['24h', '7d'];

/**
 * Points with a null between two that are further apart than the usual step (the server was not
 * running then), so the lines break there instead of joining across the gap.
 */
function withGaps(points: UsagePoint[]): Array<UsagePoint | null> {
  const times = points.map((p) => Date.parse(p.at));
  let step = Infinity;
  for (let i = 1; i < times.length; i++) step = Math.min(step, times[i]! - times[i - 1]!);
  const out: Array<UsagePoint | null> = [];
  points.forEach((point, i) => {
    if (i > 0 && times[i]! - times[i - 1]! > step * 1.5) out.push(null);
    out.push(point);
  });
  return out;
}

/**
 * The game's usage over 24 hours or 7 days: CPU and memory as shares, players online, and its
 * starts, stops, crashes and backups marked on the same time axis and listed below. Read again
 * when the game's status changes and at each sample; loaded only when the tab opens (MUI X Charts
 * is heavy).
 */
export default function UsageCard({ gameId }: { gameId: string }) {
  const { t, i18n } = useTranslation('games');
  const theme = useTheme();
  const errorMessage = useErrorMessage();
  const [window, setWindow] = useState<UsageWindow>('24h');
  // New samples come in while the tab is open: read again at the pace they are taken.
  const usage = useGameRead<Usage>(gameId, `usage?window=${window}`, { refreshEvery: (answer) => answer.sampleSeconds * 1000 });
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const locale = lang === 'en' ? 'en-GB' : 'fr-FR';
  const eventColors: Record<Kind, string> = { start: theme.palette.success.main, stop: theme.palette.text.secondary, crash: theme.palette.error.main, backup: theme.palette.info.main };

  // A backup's detail is its kind and status ("NIGHTLY READY"), said in the page's language.
  const backupText = (detail: string) => {
    const [kind, status] = detail.split(' ') as [BackupKind, string];
    return status === 'FAILED' ? t('usage.backupFailed', { kind: t(`usage.backupKinds.${kind}`) }) : t(`usage.backupKinds.${kind}`);
  };
  const data = usage.data?.window === window ? usage.data : undefined;
  const rows = data ? withGaps(data.points) : [];
  // Nulls keep their place on the axis: at the previous point's time plus a moment.
  const times = rows.map((row, i) => new Date(row ? row.at : Date.parse(rows[i - 1]!.at) + 1));
  // The axis starts at the window's first sample or event: a server that ran an hour fills the width.
  const first = data ? Math.min(...[...data.points, ...data.events].map((d) => Date.parse(d.at))) : Infinity;
  const to = data ? new Date(data.to) : undefined;
  // A little room before the first one, so its event mark stands clear of the axis.
  const from = data && to ? new Date(Math.max(Date.parse(data.from), Number.isFinite(first) ? first - (to.getTime() - first) * 0.03 : 0)) : undefined;
  const span = from && to ? to.getTime() - from.getTime() : 0;
  const tick = (value: Date) =>
    span > 2 * 24 * 3600_000
      ? value.toLocaleDateString(locale, { weekday: 'short', day: 'numeric' })
      : value.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', ...(span < 10 * 60_000 ? { second: '2-digit' } : {}) });
  const percent = (value: number | null) => (value === null ? '' : `${value.toLocaleString(locale, { maximumFractionDigits: 1 })} %`);
  const xAxis = [
    {
      data: times,
      scaleType: 'time' as const,
      min: from,
      max: to,
      tickNumber: 6,
      valueFormatter: (v: Date, context: { location: string }) => (context.location === 'tick' ? tick(v) : formatDate(v.toISOString(), lang)),
    },
  ];
  // A point between two gaps draws no line: its mark shows it.
  const isolated = ({ index }: { index: number }) => rows[index] !== null && !rows[index - 1] && !rows[index + 1];
  const marks = (data?.events ?? []).map((event) => (
    <ChartsReferenceLine key={`${event.kind}-${event.at}`} x={new Date(event.at)} lineStyle={{ stroke: eventColors[event.kind], strokeDasharray: '4 3' }} />
  ));

  return (
    <Card>
      <CardHeader
        title={t('usage.title')}
        subheader={t('usage.subtitle')}
        action={
          <ToggleButtonGroup size="small" exclusive value={window} onChange={(_, value: UsageWindow | null) => value && setWindow(value)} aria-label={t('usage.window')}>
            {windows.map((w) => (
              <ToggleButton key={w} value={w}>
                {t(`usage.windows.${w}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        }
        sx={{ flexWrap: 'wrap', gap: 1, '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
      />
      <CardContent>
        {usage.error && !data ? (
          <LoadError message={`${t('usage.loadError')} ${errorMessage(usage.error)}`} onRetry={usage.refetch} />
        ) : !data ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }} role="status" aria-label={t('usage.loading')}>
            <CircularProgress />
          </Box>
        ) : data.points.length === 0 && data.events.length === 0 ? (
          <EmptyState title={t('usage.empty')}>
            <Typography color="text.secondary">{t('usage.emptyHint')}</Typography>
          </EmptyState>
        ) : (
          <Stack spacing={2}>
            <Box aria-label={t('usage.resources')} role="figure" data-points={data.points.length}>
              <Typography variant="subtitle2">{t('usage.resources')}</Typography>
              <LineChart
                height={240}
                xAxis={xAxis}
                yAxis={[{ min: 0, valueFormatter: (v: number) => `${v} %`, width: 48 }]}
                series={[
                  { label: t('usage.cpu'), data: rows.map((r) => r?.cpuPercent ?? null), showMark: isolated, curve: 'linear', color: theme.palette.primary.main, valueFormatter: percent },
                  {
                    label: t('usage.memory', { ram: data.ramMb }),
                    data: rows.map((r) => r?.memoryPercent ?? null),
                    showMark: isolated,
                    curve: 'linear',
                    color: theme.palette.secondary.main,
                    valueFormatter: percent,
                  },
                ]}
                margin={{ left: 0, right: 8 }}
              >
                {marks}
              </LineChart>
            </Box>
            <Box aria-label={t('usage.players')} role="figure">
              <Typography variant="subtitle2">{t('usage.players')}</Typography>
              <LineChart
                height={160}
                xAxis={xAxis}
                yAxis={[{ min: 0, tickMinStep: 1, width: 48 }]}
                series={[{ label: t('usage.players'), data: rows.map((r) => r?.players ?? null), showMark: isolated, curve: 'stepAfter', color: theme.palette.warning.main }]}
                hideLegend
                margin={{ left: 0, right: 8 }}
              >
                {marks}
              </LineChart>
            </Box>
            {data.points.length === 0 && <Typography color="text.secondary">{t('usage.noSamples')}</Typography>}
            <Box>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                {t('usage.events')}
              </Typography>
              {data.events.length === 0 ? (
                <Typography color="text.secondary">{t('usage.noEvents')}</Typography>
              ) : (
                <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={t('usage.events')}>
                  {[...data.events].reverse().map((event) => (
                    <Stack component="li" key={`${event.kind}-${event.at}`} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Chip size="small" label={t(`usage.kinds.${event.kind}`)} variant="outlined" sx={{ borderColor: eventColors[event.kind], color: eventColors[event.kind] }} />
                      <Typography variant="body2">{formatDate(event.at, lang)}</Typography>
                      {event.detail && (
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {event.kind === 'backup' ? backupText(event.detail) : event.detail}
                        </Typography>
                      )}
                    </Stack>
                  ))}
                </Stack>
              )}
            </Box>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
