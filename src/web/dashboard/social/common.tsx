import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  CircularProgress,
  Snackbar,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MC_NAME_PATTERN, type Page } from '../../../contract/common.ts';
import { ApiError, bearer } from '../../app/api.ts';
import { useFetch, type FetchState } from '../../app/useFetch.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

/** SPEC.md §3: a Minecraft account without a head or name shows Steve and 'Unknow'. */
export const FALLBACK_HEAD = '/images/steve-head.png';
export const FALLBACK_NAME = 'Unknow';
export const PAGE_SIZES = [5, 10, 20, 50];
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

/** The text to show for a failed call: the API's own detail when it gave one. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.problem?.detail ?? err.problem?.title ?? err.message;
  return err instanceof Error ? err.message : String(err);
}

/** useFetch, but a reload of the same path keeps showing the last answer instead of a spinner. */
export function useFetchKeep<T>(path: string | null): FetchState<T> & { reload: () => void } {
  const state = useFetch<T>(path);
  const [last, setLast] = useState<{ path: string; data: T } | null>(null);
  if (state.status === 'done' && path !== null && (last?.data !== state.data || last.path !== path)) setLast({ path, data: state.data });
  if (state.status === 'loading' && last && last.path === path) return { status: 'done', data: last.data, reload: state.reload };
  return state;
}

/** A list paged on the server: `page`/`size` in the query, `totalElements` in the answer. */
export function usePaged<T>(path: string, initialSize = 10) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(initialSize);
  const state = useFetchKeep<Page<T>>(`${path}${path.includes('?') ? '&' : '?'}page=${page}&size=${size}`);
  // After a removal the last page may be empty: step back one.
  const empty = state.status === 'done' && state.data.data.length === 0 && page > 0;
  if (empty) setPage(page - 1);
  return {
    state,
    reload: state.reload,
    pagination: {
      page,
      rowsPerPage: size,
      count: state.status === 'done' ? state.data.totalElements : 0,
      onPageChange: (_: unknown, p: number) => setPage(p),
      onRowsPerPageChange: (e: React.ChangeEvent<HTMLInputElement>) => {
        setSize(Number(e.target.value));
        setPage(0);
      },
    },
  };
}

/** Loading, error (with retry) and empty states around a server-paged table. */
export function PagedTable<T>({
  paged,
  empty,
  label,
  row,
}: {
  paged: ReturnType<typeof usePaged<T>>;
  empty: string;
  label: string;
  row: (item: T) => ReactNode;
}) {
  const { t } = useTranslation('social');
  const { state } = paged;
  if (state.status === 'loading')
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress size={28} aria-label={t('loading', { ns: 'common' })} />
      </Box>
    );
  if (state.status === 'error')
    return (
      <Alert severity="error" action={<Button onClick={paged.reload}>{t('retry', { ns: 'common' })}</Button>}>
        {t('loadError')}: {errorText(state.error)}
      </Alert>
    );
  if (state.data.totalElements === 0)
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }} data-testid="empty">
        {empty}
      </Typography>
    );
  return (
    <>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={label}>
          <TableBody>{state.data.data.map(row)}</TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        rowsPerPageOptions={PAGE_SIZES}
        labelRowsPerPage={t('rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('displayedRows', { from, to, count })}
        getItemAriaLabel={(type) => t(`pageNav.${type}`)}
        {...paged.pagination}
        sx={{ '.MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
      />
    </>
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
