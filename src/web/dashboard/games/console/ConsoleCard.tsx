import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { ContentCopy as CopyIcon, Search as SearchIcon, Send as SendIcon, VerticalAlignBottom as FollowIcon } from '@mui/icons-material';
import { useCustomMutation } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { ConsoleLine, ConsoleOutput } from '../../../../contract/console.ts';
import { bearer, newIdempotencyKey, type ApiError } from '../../../app/api.ts';
import { useErrorMessage } from '../../../ui/states.tsx';
import { followConsole } from './consoleStream.ts';
import { plainText } from './formatting.ts';
import { MinecraftText } from './MinecraftText.tsx';

/** Lines kept on the page: older ones leave the page (the server keeps 5 000). */
const MAX_LINES = 1000;
const HISTORY_SIZE = 50;

/** A line on screen: the console's, or a command this page could not run and why (not numbered). */
interface ShownLine {
  key: string;
  line: ConsoleLine;
  own?: boolean;
}

/**
 * The game's console: its output live, coloured, followed at the bottom until the user scrolls up,
 * searchable and copyable, with a command line remembering what was sent (up and down arrows).
 */
export default function ConsoleCard({ gameId, running, canCommand = true }: { gameId: string; running: boolean; canCommand?: boolean }) {
  const { t } = useTranslation('games');
  const [lines, setLines] = useState<ShownLine[]>([]);
  const [neverStarted, setNeverStarted] = useState(false);
  const [state, setState] = useState<'connecting' | 'open' | 'reconnecting' | 'refused'>('connecting');
  const [follow, setFollow] = useState(true);
  const [query, setQuery] = useState('');
  const [copied, setCopied] = useState(false);
  const view = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Lines are put on screen once a frame, however fast they come.
    let pending: ShownLine[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setLines((shown) => [...shown, ...batch].slice(-MAX_LINES));
    };
    const close = followConsole(gameId, bearer, {
      line(line) {
        setNeverStarted(false);
        pending.push({ key: String(line.seq), line });
        frame ||= requestAnimationFrame(flush);
      },
      neverStarted: () => setNeverStarted(true),
      state: setState,
    });
    return () => {
      close();
      cancelAnimationFrame(frame);
    };
  }, [gameId]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? lines.filter(({ line }) => plainText(line.text).toLowerCase().includes(q)) : lines;
  }, [lines, query]);

  useLayoutEffect(() => {
    const box = view.current;
    if (follow && box) box.scrollTop = box.scrollHeight;
  }, [shown, follow]);

  const onScroll = () => {
    const box = view.current;
    if (!box) return;
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    if (atBottom !== follow) setFollow(atBottom);
  };

  const copy = async () => {
    const text = shown.map(({ line }) => (line.omitted ? t('console.omitted', { count: line.omitted }) : plainText(line.text))).join('\n');
    try {
      // Only a secure page (https, localhost) has the clipboard, and the browser may refuse it.
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (err) {
      console.error('console copy', err);
    }
  };

  const echo = (text: string, level: ConsoleLine['level'] = 'info') =>
    setLines((all) => [...all, { key: `own-${crypto.randomUUID()}`, own: true, line: { seq: 0, at: new Date().toISOString(), level, text } }].slice(-MAX_LINES));

  return (
    <Card variant="outlined" data-testid="console">
      <CardContent>
        <Stack spacing={2}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Typography variant="h2" sx={{ fontSize: '1.25rem', flexGrow: 1 }}>
              {t('console.title')}
            </Typography>
            {state === 'reconnecting' && <Chip size="small" color="warning" label={t('console.reconnecting')} />}
            <Tooltip title={copied ? t('console.copied') : t('console.copy')}>
              <IconButton aria-label={t('console.copy')} onClick={() => void copy()} disabled={shown.length === 0}>
                <CopyIcon />
              </IconButton>
            </Tooltip>
            <TextField
              size="small"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('console.search')}
              slotProps={{
                htmlInput: { 'aria-label': t('console.search'), maxLength: 100 },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
              sx={{ width: { xs: '100%', sm: 220 } }}
            />
          </Box>

          {state === 'refused' && <Alert severity="error">{t('console.refused')}</Alert>}
          <Box sx={{ position: 'relative' }}>
            <Box
              ref={view}
              onScroll={onScroll}
              role="log"
              aria-label={t('console.title')}
              data-testid="console-lines"
              sx={{
                height: { xs: 360, md: 480 },
                overflowY: 'auto',
                overflowX: 'hidden',
                p: 1.5,
                borderRadius: 1,
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                fontSize: { xs: '0.75rem', sm: '0.8125rem' },
                lineHeight: 1.5,
                // A terminal stays dark in both themes, so Minecraft's light colours stay readable.
                bgcolor: '#15171a',
                color: '#e6e6e6',
              }}
            >
              {neverStarted && lines.length === 0 && <Typography sx={{ color: '#9aa0a6', fontFamily: 'inherit', fontSize: 'inherit' }}>{t('console.neverStarted')}</Typography>}
              {state === 'connecting' && <Typography sx={{ color: '#9aa0a6', fontFamily: 'inherit', fontSize: 'inherit' }}>{t('console.connecting')}</Typography>}
              {shown.map((item) => (
                <Line key={item.key} item={item} omittedText={item.line.omitted ? t('console.omitted', { count: item.line.omitted }) : undefined} />
              ))}
            </Box>
            {!follow && (
              <Button size="small" variant="contained" startIcon={<FollowIcon />} onClick={() => setFollow(true)} sx={{ position: 'absolute', right: 16, bottom: 12 }}>
                {t('console.follow')}
              </Button>
            )}
          </Box>
          {canCommand && <CommandLine gameId={gameId} running={running} echo={echo} />}
        </Stack>
      </CardContent>
    </Card>
  );
}

const levelColors = { info: undefined, warn: '#f2c744', error: '#ff6b6b' } as const;

/** A line's time of day in the reader's zone (its `at` is UTC), to the second: 24 hours, as a log reads. */
const lineTime = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** One line: its time, then its text in its own colours (the level's when it has none). */
const Line = memo(function Line({ item, omittedText }: { item: ShownLine; omittedText: string | undefined }) {
  const { line, own } = item;
  const time = lineTime.format(new Date(line.at));
  return (
    <Box
      data-seq={own ? undefined : line.seq}
      data-level={line.level}
      data-command={line.command ? '' : undefined}
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: own || line.command ? '#8ab4f8' : levelColors[line.level] }}
    >
      <Box component="span" sx={{ color: '#7c838a', mr: 1, display: { xs: 'none', sm: 'inline' } }}>
        {time}
      </Box>
      {line.command && '> '}
      {omittedText !== undefined ? (
        <Box component="span" sx={{ fontStyle: 'italic' }}>
          {omittedText}
        </Box>
      ) : (
        <MinecraftText text={line.text} />
      )}
    </Box>
  );
});

/** The command line: Enter sends, up and down walk through what was sent. */
function CommandLine({ gameId, running, echo }: { gameId: string; running: boolean; echo: (text: string, level?: ConsoleLine['level']) => void }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [command, setCommand] = useState('');
  const [history, setHistory] = useState<string[]>([]);
  const [cursor, setCursor] = useState(-1);
  const { mutateAsync: call, mutation } = useCustomMutation<ConsoleOutput, ApiError>();

  const send = async () => {
    const text = command.trim();
    if (!text) return;
    setHistory((h) => [text, ...h.filter((c) => c !== text)].slice(0, HISTORY_SIZE));
    setCursor(-1);
    setCommand('');
    try {
      // The command and its answer come back on the console's stream, which keeps them.
      await call({
        url: `/v1/game/${encodeURIComponent(gameId)}/console`,
        method: 'post',
        values: { command: text },
        meta: { idempotencyKey: newIdempotencyKey() },
        successNotification: false,
        errorNotification: false,
      });
    } catch (err) {
      echo(`> ${text}`);
      echo(errorMessage(err), 'error');
    }
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void send();
    } else if (e.key === 'ArrowUp' && history.length > 0) {
      e.preventDefault();
      const next = Math.min(cursor + 1, history.length - 1);
      setCursor(next);
      setCommand(history[next]!);
    } else if (e.key === 'ArrowDown' && cursor >= 0) {
      e.preventDefault();
      const next = cursor - 1;
      setCursor(next);
      setCommand(next < 0 ? '' : history[next]!);
    }
  };

  return (
    <Box sx={{ display: 'flex', gap: 1 }}>
      <TextField
        fullWidth
        size="small"
        value={command}
        onChange={(e) => setCommand(e.target.value)}
        onKeyDown={onKey}
        disabled={!running}
        placeholder={running ? t('console.commandPlaceholder') : t('console.notRunning')}
        slotProps={{
          htmlInput: { 'aria-label': t('console.command'), maxLength: 256, autoComplete: 'off', spellCheck: false, sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } },
        }}
      />
      <IconButton color="primary" aria-label={t('console.send')} onClick={() => void send()} disabled={!running || mutation.isPending || !command.trim()}>
        <SendIcon />
      </IconButton>
    </Box>
  );
}
