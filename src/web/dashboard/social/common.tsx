import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Snackbar,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { MC_NAME_PATTERN } from '../../../contract/common.ts';
import { bearer, errorText } from '../../app/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

/** SPEC.md §3: a Minecraft account without a head or name shows Steve and 'Unknow'. */
export const FALLBACK_HEAD = '/images/steve-head.png';
export const FALLBACK_NAME = 'Unknow';
export const mcNamePattern = new RegExp(MC_NAME_PATTERN);

// The head route wants the bearer token, which an <img src> cannot send: fetch once, show a blob URL.
const heads = new Map<string, Promise<string>>();
function headUrl(uuid: string): Promise<string> {
  let url = heads.get(uuid);
  if (!url) {
    const token = bearer();
    url = fetch(`/v1/user/minecraft/${encodeURIComponent(uuid)}/head`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      .then((res) => (res.ok ? res.blob() : Promise.reject(new Error(`head answered ${res.status}`))))
      .then((blob) => URL.createObjectURL(blob));
    url.catch(() => heads.delete(uuid));
    heads.set(uuid, url);
  }
  return url;
}

/** A Minecraft head, pixel-sharp; Steve while it loads, when it fails, or without an account. */
export function McHead({ uuid, name, size = 32 }: { uuid: string | null | undefined; name?: string | null; size?: number }) {
  const [loaded, setLoaded] = useState<{ uuid: string; src: string } | null>(null);
  useEffect(() => {
    if (!uuid) return;
    let live = true;
    headUrl(uuid).then(
      (src) => live && setLoaded({ uuid, src }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [uuid]);
  const src = uuid && loaded?.uuid === uuid ? loaded.src : FALLBACK_HEAD;
  return (
    <Avatar
      variant="rounded"
      src={src}
      alt={name ?? FALLBACK_NAME}
      data-testid="mc-head"
      sx={{ width: size, height: size, borderRadius: 1, '& img': { imageRendering: 'pixelated' } }}
    />
  );
}

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

/** Asks before something that cannot be undone. */
export interface Confirmation {
  title: string;
  text: string;
  confirm: string;
  run: () => Promise<void>;
  done?: string;
}

/** The confirmation asked for, and the brief message after an action. */
export function useActions() {
  const [pending, setPending] = useState<Confirmation | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const run = useCallback(async (action: () => Promise<void>, success?: string) => {
    try {
      await action();
      if (success) setNotice({ severity: 'success', text: success });
    } catch (err) {
      setNotice({ severity: 'error', text: errorText(err) });
    }
  }, []);
  const nodes = (
    <>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.title ?? ''}
        text={pending?.text ?? ''}
        confirm={pending?.confirm ?? ''}
        onClose={() => setPending(null)}
        onConfirm={() => {
          const p = pending;
          setPending(null);
          if (p) void run(p.run, p.done);
        }}
      />
      <Snackbar open={notice !== null} autoHideDuration={5000} onClose={() => setNotice(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        {notice ? (
          <Alert severity={notice.severity} variant="filled" onClose={() => setNotice(null)} data-testid="notice">
            {notice.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </>
  );
  return { confirm: setPending, run, notify: setNotice, nodes };
}
