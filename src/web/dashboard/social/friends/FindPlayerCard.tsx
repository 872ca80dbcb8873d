import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, InputAdornment, List, ListItem, TextField, Typography } from '@mui/material';
import { PersonAdd as PersonAddIcon, Search as SearchIcon } from '@mui/icons-material';
import { useCustom, useCustomMutation, useInvalidate, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { FriendAddResult, Player, UserSearchResult } from '../../../../contract/social.ts';
import { errorText, newIdempotencyKey, type ApiError } from '../../../app/api.ts';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';
import { PlayerCell } from '../PlayerRow.tsx';

/** The API suggests names from their first three characters; a shorter name is looked up whole, on Enter. */
const SUGGEST_FROM = 3;
/** Typing settles before asking, so a fast typist sends one search, not one per key. */
const SETTLE_MS = 250;

/**
 * A friend request to a player found by their BlockHost name (GET /v1/user/search), for friends
 * who have not linked a Minecraft account: suggestions while typing, each sent by id (POST /v1/friend).
 */
export function FindPlayerCard() {
  const { t } = useTranslation('social');
  const invalidate = useInvalidate();
  const [typed, setTyped] = useState('');
  const [settled, setSettled] = useState('');
  // A name shorter than SUGGEST_FROM, asked for whole with Enter.
  const [exact, setExact] = useState('');
  const [sent, setSent] = useState<Record<string, FriendAddResult['status']>>({});
  useEffect(() => {
    const timer = setTimeout(() => setSettled(typed.trim()), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const q = settled.length >= SUGGEST_FROM ? settled : exact;
  const { query, result } = useCustom<UserSearchResult & BaseRecord, ApiError>({
    url: '/v1/user/search',
    method: 'get',
    config: { query: { q } },
    queryOptions: { enabled: q !== '' },
  });
  const { mutateAsync } = useCustomMutation<FriendAddResult & BaseRecord, ApiError>();
  const { run, busy, result: outcome } = useConfirmedAction();
  // One key per player asked, kept until the request is through, so a retry cannot ask twice.
  const keys = useRef(new Map<string, string>());
  const add = (p: Player) =>
    void run({
      action: async () => {
        const key = keys.current.get(p.id) ?? newIdempotencyKey();
        keys.current.set(p.id, key);
        const { data } = await mutateAsync({ url: '/v1/friend', method: 'post', values: { userId: p.id }, meta: { idempotencyKey: key } });
        keys.current.delete(p.id);
        setSent((s) => ({ ...s, [p.id]: data.status }));
        await invalidate({ resource: data.status === 'ACCEPTED' ? 'friends' : 'friendRequests', invalidates: ['list'] });
        return data;
      },
      success: ({ status, user }) => t(status === 'ACCEPTED' ? 'add.accepted' : 'add.sent', { name: user.name }),
      failure: t('add.failed'),
    });
  const found = q === '' ? [] : (result.data?.data ?? []);
  return (
    <Card>
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1.5 }}>
          {t('find.title')}
        </Typography>
        <TextField
          fullWidth
          size="small"
          type="search"
          label={t('find.label')}
          helperText={t('find.help')}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setExact('');
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            setSettled(typed.trim());
            setExact(typed.trim());
          }}
          slotProps={{
            htmlInput: { maxLength: 100, 'data-testid': 'find-player', 'aria-controls': 'find-player-results', autoComplete: 'off' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: query.isFetching ? <CircularProgress size={18} aria-label={t('loading', { ns: 'common' })} /> : undefined,
            },
          }}
        />
        <Box id="find-player-results" aria-live="polite">
          {query.isError && q !== '' && (
            <Alert severity="error" sx={{ mt: 1.5 }} action={<Button onClick={() => void query.refetch()}>{t('retry', { ns: 'common' })}</Button>}>
              {t('find.error')}: {errorText(query.error)}
            </Alert>
          )}
          {query.isSuccess && q !== '' && found.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }} data-testid="find-player-empty">
              {t('find.none', { q })}
            </Typography>
          )}
          {found.length > 0 && (
            <List dense aria-label={t('find.results')} sx={{ mt: 1 }}>
              {found.map((p) => (
                <ListItem key={p.id} data-testid={`found-${p.name}`} disableGutters sx={{ gap: 1, justifyContent: 'space-between' }}>
                  <PlayerCell name={p.name} mcUuid={p.mcUuid} mcName={p.mcName} />
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<PersonAddIcon />}
                    disabled={busy || sent[p.id] !== undefined}
                    aria-label={t('find.addOf', { name: p.name })}
                    onClick={() => add(p)}
                    sx={{ flexShrink: 0 }}
                  >
                    {sent[p.id] === undefined ? t('find.add') : t(sent[p.id] === 'ACCEPTED' ? 'find.friends' : 'find.sent')}
                  </Button>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
        <ActionAlert result={outcome} testId="find-player-result" />
      </CardContent>
    </Card>
  );
}
