import { useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useInvalidate, useShow } from '@refinedev/core';
import { Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { BracketMatch, Tournament } from '../../../contract/tournaments.ts';
import type { ApiError } from '../../app/api.ts';
import { BracketView } from '../../site/ranked/BracketView.tsx';
import { EntrantsTable } from '../../site/ranked/EntrantsTable.tsx';
import { formatDate, formatNumber, useLocalized } from '../../ui/format.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';
import { BackButton, ErrorAlert, Fact, Facts, useReadOnly, ViewTitle } from '../common.tsx';
import { SelectInput } from '../fields.tsx';

const playerName = (p: { name: string; mcName: string | null } | null) => (p ? (p.mcName ?? p.name) : '');

/** A tournament's terms, entrants and bracket; staff decide a match not yet decided, or cancel the tournament, each with a reason. */
export function TournamentShow() {
  const { t, i18n } = useTranslation('staff');
  const localized = useLocalized();
  const lang = i18n.language;
  const { query, result: x } = useShow<Tournament, ApiError>({ resource: 'tournaments' });
  const invalidate = useInvalidate();
  const { readOnly } = useReadOnly('tournaments');
  const [deciding, setDeciding] = useState<BracketMatch | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const refresh = () => void invalidate({ resource: 'tournaments', invalidates: ['list', 'detail'], id: x?.id });
  const open = x ? x.bracket.filter((m) => (m.status === 'READY' || m.status === 'RUNNING') && m.sides.every((s) => s.player)) : [];
  return (
    <Show
      goBack={<BackButton />}
      title={<ViewTitle>{x ? localized(x.name) : t('tournaments.titles.show')}</ViewTitle>}
      isLoading={query.isLoading}
      canDelete={false}
      canEdit={x?.status === 'SCHEDULED'}
      headerButtons={({ defaultButtons }) => (
        <>
          {defaultButtons}
          {!readOnly && (x?.status === 'SCHEDULED' || x?.status === 'LIVE') && (
            <Button variant="outlined" color="error" onClick={() => setCancelling(true)}>
              {t('tournaments.cancel.open')}
            </Button>
          )}
        </>
      )}
    >
      <ErrorAlert error={query.error} />
      {x && (
        <Stack spacing={3}>
          <Facts>
            <Fact label={t('tournaments.fields.status')}>{t(`tournaments.status.${x.status}`)}</Fact>
            <Fact label={t('tournaments.fields.slug')}>{x.slug}</Fact>
            <Fact label={t('tournaments.fields.format')}>{t(`tournaments.formats.${x.format}`)}</Fact>
            <Fact label={t('tournaments.fields.mode')}>{localized(x.modeName)}</Fact>
            <Fact label={t('tournaments.fields.entrants')}>{`${x.entrants} / ${x.maxEntrants}`}</Fact>
            <Fact label={t('tournaments.fields.startsAt')}>{formatDate(x.startsAt, lang)}</Fact>
            <Fact label={t('tournaments.fields.entryFee')}>{formatNumber(x.entryFee, lang)}</Fact>
            <Fact label={t('tournaments.fields.prizes')}>{[x.prizeFirst, x.prizeSecond, x.prizeThird].map((p) => formatNumber(p, lang)).join(' / ')}</Fact>
            {x.winner && <Fact label={t('tournaments.fields.winner')}>{playerName(x.winner)}</Fact>}
            {x.cancelReason && <Fact label={t('tournaments.fields.cancelReason')}>{x.cancelReason}</Fact>}
          </Facts>
          {!readOnly && open.length > 0 && (
            <Box>
              <Typography variant="h4" component="h2" sx={{ mb: 1 }}>
                {t('tournaments.decide.title')}
              </Typography>
              <Stack spacing={1}>
                {open.map((m) => (
                  <Box key={m.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="decidable-match">
                    <Typography>{t('tournaments.decide.match', { round: m.round, a: playerName(m.sides[0]!.player), b: playerName(m.sides[1]!.player) })}</Typography>
                    <Button size="small" variant="outlined" onClick={() => setDeciding(m)}>
                      {t('tournaments.decide.open')}
                    </Button>
                  </Box>
                ))}
              </Stack>
            </Box>
          )}
          <Box>
            <Typography variant="h4" component="h2" sx={{ mb: 1 }}>
              {t('tournaments.bracket')}
            </Typography>
            {x.bracket.length === 0 ? <Typography color="text.secondary">{t('tournaments.noBracket')}</Typography> : <BracketView matches={x.bracket} />}
          </Box>
          <Box>
            <Typography id="staff-tournament-entrants" variant="h4" component="h2" sx={{ mb: 1 }}>
              {t('tournaments.fields.entrants')}
            </Typography>
            <EntrantsTable entrants={x.entrantList} labelledBy="staff-tournament-entrants" />
          </Box>
        </Stack>
      )}
      {x && deciding && (
        <ActionDialog<{ winnerId: string; reason: string }, Tournament>
          open
          onClose={() => setDeciding(null)}
          testId="decide-dialog"
          title={t('tournaments.decide.dialogTitle')}
          text={t('tournaments.decide.text')}
          url={`/v1/staff/tournaments/${x.id}/matches/${deciding.id}/result`}
          defaultValues={{ winnerId: deciding.sides[0]!.player!.id, reason: '' }}
          submitLabel={t('tournaments.decide.submit')}
          success={() => t('tournaments.decide.done')}
          onDone={refresh}
          fields={(control) => (
            <>
              <SelectInput
                control={control}
                name="winnerId"
                label={t('tournaments.decide.winner')}
                required
                options={deciding.sides.map((s) => ({ value: s.player!.id, label: playerName(s.player) }))}
              />
              <ReasonInput control={control} />
            </>
          )}
        />
      )}
      {x && cancelling && (
        <ActionDialog<{ reason: string }, Tournament>
          open
          onClose={() => setCancelling(false)}
          testId="cancel-dialog"
          title={t('tournaments.cancel.title')}
          text={t('tournaments.cancel.text')}
          url={`/v1/staff/tournaments/${x.id}/cancel`}
          defaultValues={{ reason: '' }}
          submitLabel={t('tournaments.cancel.submit')}
          danger
          confirmation={() => ({ title: t('tournaments.cancel.confirmTitle'), text: t('tournaments.cancel.confirmText'), confirm: t('tournaments.cancel.submit') })}
          success={() => t('tournaments.cancel.done')}
          onDone={refresh}
          fields={(control) => <ReasonInput control={control} />}
        />
      )}
    </Show>
  );
}
