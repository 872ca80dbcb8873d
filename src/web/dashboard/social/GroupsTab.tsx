import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { Add as AddIcon, Delete as DeleteIcon, Edit as EditIcon, Group as GroupIcon, PersonRemove as PersonRemoveIcon, Upload as UploadIcon } from '@mui/icons-material';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract/common.ts';
import type { Friend, FriendGroup, FriendGroupDetail, FriendGroupImportReport, FriendGroupMember, ImportResult } from '../../../contract/social.ts';
import { apiFetch, errorText } from '../../app/api.ts';
import { useFetch, type FetchState } from '../../app/useFetch.ts';
import { ListPagination, PagedTable, usePaged, useRecord } from '../lists.tsx';
import { ActionRow, FALLBACK_NAME, PlayerCell, mcNamePattern, useActions } from './common.tsx';

export const IMPORT_MAX = 200;
const GROUP_NAME_MAX = 50;

/** Groups by name on the left (or on top on a phone), the open group's members beside them. */
export function GroupsTab() {
  const { t } = useTranslation('social');
  const groups = usePaged<FriendGroup>('friendGroups');
  const [openId, setOpenId] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<FriendGroup | null>(null);
  const actions = useActions();
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, alignItems: 'start' }}>
      <Card>
        <CardContent>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
            {t('groups.title')}
          </Typography>
          <CreateGroupForm
            onCreated={(g) => {
              groups.reload();
              setOpenId(g.id);
            }}
            notify={actions.notify}
          />
          <PagedTable
            paged={groups}
            label={t('groups.title')}
            empty={t('groups.empty')}
            row={(g) => (
              <ActionRow
                key={g.id}
                testId={`group-${g.name}`}
                actions={
                  <>
                    <Tooltip title={t('groups.rename')}>
                      <IconButton aria-label={t('groups.renameOf', { name: g.name })} onClick={() => setRenaming(g)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('groups.delete')}>
                      <IconButton
                        color="error"
                        aria-label={t('groups.deleteOf', { name: g.name })}
                        onClick={() =>
                          actions.confirm({
                            title: t('groups.deleteTitle'),
                            text: t('groups.deleteText', { name: g.name }),
                            confirm: t('groups.delete'),
                            done: t('groups.deleted', { name: g.name }),
                            run: async () => {
                              await apiFetch(`/v1/friend/group/${g.id}`, { method: 'DELETE' });
                              if (openId === g.id) setOpenId(null);
                              groups.reload();
                            },
                          })
                        }
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                }
              >
                <Button
                  onClick={() => setOpenId(g.id)}
                  startIcon={<GroupIcon />}
                  variant={openId === g.id ? 'contained' : 'text'}
                  color={openId === g.id ? 'primary' : 'inherit'}
                  aria-pressed={openId === g.id}
                  sx={{ justifyContent: 'flex-start', textAlign: 'left', maxWidth: '100%' }}
                >
                  <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {g.name}
                  </Box>
                  <Chip
                    size="small"
                    label={g.memberCount}
                    aria-label={t('groups.memberCount', { count: g.memberCount })}
                    sx={{ ml: 1, flexShrink: 0, color: 'inherit', bgcolor: openId === g.id ? 'rgba(255,255,255,0.25)' : 'action.selected' }}
                  />
                </Button>
              </ActionRow>
            )}
          />
        </CardContent>
      </Card>
      {openId ? (
        <GroupDetailCard key={openId} id={openId} onChanged={groups.reload} />
      ) : (
        <Card sx={{ display: { xs: 'none', md: 'block' } }}>
          <CardContent>
            <Typography color="text.secondary">{t('groups.pick')}</Typography>
          </CardContent>
        </Card>
      )}
      <RenameDialog
        group={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={() => {
          setRenaming(null);
          groups.reload();
          actions.notify({ severity: 'success', text: t('groups.renamed') });
        }}
      />
      {actions.nodes}
    </Box>
  );
}

type Notify = (n: { severity: 'success' | 'error'; text: string }) => void;

function CreateGroupForm({ onCreated, notify }: { onCreated: (g: FriendGroup) => void; notify: Notify }) {
  const { t } = useTranslation('social');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      const g = await apiFetch<FriendGroup>('/v1/friend/group', { method: 'POST', json: { name: name.trim() } });
      setName('');
      notify({ severity: 'success', text: t('groups.created', { name: g.name }) });
      onCreated(g);
    } catch (err) {
      notify({ severity: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" onSubmit={(e) => void submit(e)} sx={{ display: 'flex', gap: 1, mb: 1 }}>
      <TextField
        size="small"
        label={t('groups.newName')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX } }}
        sx={{ flex: 1 }}
      />
      <Button type="submit" variant="contained" startIcon={<AddIcon />} disabled={busy || !name.trim()}>
        {t('groups.create')}
      </Button>
    </Box>
  );
}

function RenameDialog({ group, onClose, onRenamed }: { group: FriendGroup | null; onClose: () => void; onRenamed: () => void }) {
  return (
    <Dialog open={group !== null} onClose={onClose} fullWidth maxWidth="xs">
      {group && <RenameForm key={group.id} group={group} onClose={onClose} onRenamed={onRenamed} />}
    </Dialog>
  );
}

function RenameForm({ group, onClose, onRenamed }: { group: FriendGroup; onClose: () => void; onRenamed: () => void }) {
    const { t } = useTranslation('social');
    const [name, setName] = useState(group.name);
    const [error, setError] = useState<string | null>(null);
    const submit = async (e: FormEvent) => {
      e.preventDefault();
      try {
        await apiFetch(`/v1/friend/group/${group.id}`, { method: 'PUT', json: { name: name.trim() } });
        onRenamed();
      } catch (err) {
        setError(errorText(err));
      }
    };
    return (
      <form onSubmit={(e) => void submit(e)}>
        <DialogTitle>{t('groups.renameTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('groups.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX } }}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!name.trim() || name.trim() === group.name}>
            {t('groups.rename')}
          </Button>
        </DialogActions>
      </form>
    );
}

const MEMBERS_PAGE = 10;

function GroupDetailCard({ id, onChanged }: { id: string; onChanged: () => void }) {
  const { t } = useTranslation('social');
  const group = useRecord<FriendGroupDetail>('friendGroups', id);
  // Groups hold friends: the choice is among them (the first hundred, the API's largest page), and their heads come from here.
  const friends = useFetch<Page<Friend>>('/v1/friend?page=0&size=100');
  const heads = new Map(friends.status === 'done' ? friends.data.data.map((f) => [f.id, f.mcUuid]) : []);
  const actions = useActions();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(MEMBERS_PAGE);
  const [importing, setImporting] = useState(false);
  const changed = () => {
    group.reload();
    onChanged();
  };
  if (group.status === 'loading')
    return (
      <Card>
        <CardContent sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress size={28} aria-label={t('loading', { ns: 'common' })} />
        </CardContent>
      </Card>
    );
  if (group.status === 'error')
    return (
      <Alert severity="error" action={<Button onClick={group.reload}>{t('retry', { ns: 'common' })}</Button>}>
        {t('loadError')}: {errorText(group.error)}
      </Alert>
    );
  const g = group.data;
  const members = g.members;
  const lastPage = Math.max(0, Math.ceil(members.length / size) - 1);
  const shownPage = Math.min(page, lastPage);
  const removeMember = (m: FriendGroupMember) => {
    const who = m.name ?? m.mcName ?? FALLBACK_NAME;
    actions.confirm({
      title: t('members.removeTitle'),
      text: t('members.removeText', { name: who, group: g.name }),
      confirm: t('members.remove'),
      done: t('members.removed', { name: who }),
      run: async () => {
        if (m.userId) await apiFetch(`/v1/friend/group/${g.id}/member`, { method: 'DELETE', json: { userId: m.userId } });
        else await apiFetch(`/v1/friend/group/${g.id}/member/pseudo`, { method: 'DELETE', json: { mcName: m.mcName } });
        changed();
      },
    });
  };
  return (
    <Card data-testid="group-detail">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5, overflowWrap: 'anywhere' }}>
          {t('members.title', { name: g.name })}
        </Typography>
        <Stack spacing={1.5} sx={{ mb: 2 }}>
          <AddFriendMember groupId={g.id} friends={friends} members={members} onAdded={changed} notify={actions.notify} />
          <AddNameMember groupId={g.id} onAdded={changed} notify={actions.notify} />
          <Box>
            <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
              {t('import.open')}
            </Button>
          </Box>
        </Stack>
        {members.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            {t('members.empty')}
          </Typography>
        ) : (
          <>
            <TableContainer>
              <Table size="small" aria-label={t('members.title', { name: g.name })}>
                <TableBody>
                  {members.slice(shownPage * size, shownPage * size + size).map((m) => (
                    <ActionRow
                      key={m.id}
                      testId={`member-${m.name ?? m.mcName}`}
                      actions={
                        <Tooltip title={t('members.remove')}>
                          <IconButton aria-label={t('members.removeOf', { name: m.name ?? m.mcName ?? FALLBACK_NAME })} onClick={() => removeMember(m)}>
                            <PersonRemoveIcon />
                          </IconButton>
                        </Tooltip>
                      }
                    >
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                        <PlayerCell name={m.name} mcUuid={m.userId ? (heads.get(m.userId) ?? null) : null} mcName={m.mcName} />
                        {!m.userId && <Chip size="small" variant="outlined" label={t('members.byName')} />}
                      </Box>
                    </ActionRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <ListPagination
              count={members.length}
              page={shownPage}
              rowsPerPage={size}
              onPageChange={(_, p) => setPage(p)}
              onRowsPerPageChange={(e) => {
                setSize(Number(e.target.value));
                setPage(0);
              }}
            />
          </>
        )}
      </CardContent>
      <ImportDialog open={importing} groupId={g.id} onClose={() => setImporting(false)} onImported={changed} />
      {actions.nodes}
    </Card>
  );
}

function AddFriendMember({
  groupId,
  friends,
  members,
  onAdded,
  notify,
}: {
  groupId: string;
  friends: FetchState<Page<Friend>>;
  members: FriendGroupMember[];
  onAdded: () => void;
  notify: Notify;
}) {
  const { t } = useTranslation('social');
  const [userId, setUserId] = useState('');
  const inGroup = new Set(members.map((m) => m.userId));
  const choices = friends.status === 'done' ? friends.data.data.filter((f) => !inGroup.has(f.id)) : [];
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!userId) return;
    try {
      await apiFetch(`/v1/friend/group/${groupId}/member`, { method: 'POST', json: { userId } });
      setUserId('');
      onAdded();
    } catch (err) {
      notify({ severity: 'error', text: errorText(err) });
    }
  };
  return (
    <Box component="form" onSubmit={(e) => void add(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={t('members.friend')}
        value={userId}
        onChange={(e) => setUserId(e.target.value)}
        disabled={choices.length === 0}
        helperText={friends.status === 'error' ? errorText(friends.error) : choices.length === 0 && friends.status === 'done' ? t('members.noFriendToAdd') : undefined}
        sx={{ flex: '1 1 200px' }}
      >
        {choices.map((f) => (
          <MenuItem key={f.id} value={f.id}>
            {f.mcName ? `${f.name} (${f.mcName})` : f.name}
          </MenuItem>
        ))}
      </TextField>
      <Button type="submit" variant="contained" disabled={!userId} sx={{ alignSelf: 'flex-start', mt: 0.25 }}>
        {t('members.addFriend')}
      </Button>
    </Box>
  );
}

function AddNameMember({ groupId, onAdded, notify }: { groupId: string; onAdded: () => void; notify: Notify }) {
  const { t } = useTranslation('social');
  const [name, setName] = useState('');
  const invalid = name !== '' && !mcNamePattern.test(name.trim());
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const mcName = name.trim();
    if (!mcNamePattern.test(mcName)) return;
    try {
      await apiFetch(`/v1/friend/group/${groupId}/member/pseudo`, { method: 'POST', json: { mcName } });
      setName('');
      onAdded();
    } catch (err) {
      notify({ severity: 'error', text: errorText(err) });
    }
  };
  return (
    <Box component="form" onSubmit={(e) => void add(e)} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <TextField
        size="small"
        label={t('members.mcName')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={invalid}
        helperText={invalid ? t('invalidName') : undefined}
        slotProps={{ htmlInput: { maxLength: 16, autoComplete: 'off' } }}
        sx={{ flex: '1 1 200px' }}
      />
      <Button type="submit" variant="contained" disabled={!name.trim() || invalid} sx={{ alignSelf: 'flex-start', mt: 0.25 }}>
        {t('members.addName')}
      </Button>
    </Box>
  );
}

/** Names one per line (or separated by commas, semicolons or spaces), duplicates dropped. */
export function parseNames(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

const resultColor: Record<ImportResult, 'success' | 'default' | 'error' | 'warning'> = { ADDED: 'success', ALREADY_MEMBER: 'default', INVALID: 'error', BLOCKED: 'warning' };

function ImportDialog({ open, groupId, onClose, onImported }: { open: boolean; groupId: string; onClose: () => void; onImported: () => void }) {
  const { t } = useTranslation('social');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<FriendGroupImportReport | null>(null);
  const names = parseNames(text);
  const tooMany = names.length > IMPORT_MAX;
  const close = () => {
    setText('');
    setReport(null);
    setError(null);
    onClose();
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiFetch<FriendGroupImportReport>(`/v1/friend/group/${groupId}/member/import`, { method: 'POST', json: { mcNames: names } });
      setReport(answer);
      onImported();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="import-title">
      <DialogTitle id="import-title">{t('import.title')}</DialogTitle>
      <DialogContent>
        {report ? (
          <>
            <Alert severity={report.added > 0 ? 'success' : 'info'} sx={{ mb: 1.5 }} data-testid="import-summary">
              {t('import.summary', { count: report.added, total: report.results.length })}
            </Alert>
            <TableContainer sx={{ maxHeight: 360 }}>
              <Table size="small" stickyHeader aria-label={t('import.results')} data-testid="import-results">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('import.name')}</TableCell>
                    <TableCell>{t('import.result')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.results.map((r, i) => (
                    <TableRow key={`${i}-${r.mcName}`} data-testid={`import-row-${r.mcName}`}>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.mcName}</TableCell>
                      <TableCell>
                        <Chip size="small" color={resultColor[r.result]} label={t(`import.outcome.${r.result}`)} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('import.help', { max: IMPORT_MAX })}
            </Typography>
            <TextField
              autoFocus
              multiline
              fullWidth
              minRows={6}
              maxRows={14}
              label={t('import.label')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              error={tooMany}
              helperText={tooMany ? t('import.tooMany', { max: IMPORT_MAX, n: names.length }) : t('import.count', { count: names.length })}
            />
            {error && (
              <Alert severity="error" sx={{ mt: 1.5 }}>
                {error}
              </Alert>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        {report ? (
          <Button variant="contained" onClick={close}>
            {t('close')}
          </Button>
        ) : (
          <>
            <Button onClick={close}>{t('cancel')}</Button>
            <Button variant="contained" onClick={() => void submit()} disabled={busy || names.length === 0 || tooMany}>
              {t('import.submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
