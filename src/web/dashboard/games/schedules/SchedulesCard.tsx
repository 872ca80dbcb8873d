import { useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Chip, Collapse, FormControlLabel, LinearProgress, Stack, Switch, Typography, type ChipProps } from '@mui/material';
import { Add as AddIcon, DeleteOutline as DeleteOutlineIcon, Edit as EditIcon, ExpandLess as ExpandLessIcon, ExpandMore as ExpandMoreIcon, PlayArrow as PlayArrowIcon } from '@mui/icons-material';
import { useCustom, useCustomMutation, useDelete, useUpdate, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../../contract/common.ts';
import type { Schedule, ScheduleList, ScheduleRun, ScheduleRunStatus } from '../../../../contract/schedules.ts';
import { newIdempotencyKey, type ApiError } from '../../../app/api.ts';
import { ActionIcon } from '../../../ui/ActionIcon.tsx';
import { formatDate } from '../../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../../ui/states.tsx';
import { ActionAlert, useConfirmedAction, type RunAction } from '../../../ui/useConfirmedAction.tsx';
import { useGameRead } from '../useGameCall.ts';
import { askFirstTasks, inputOf, ruleText } from './rule.ts';
import { ScheduleForm } from './ScheduleForm.tsx';

const quiet = { successNotification: false, errorNotification: false } as const;
const runColors: Record<ScheduleRunStatus, ChipProps['color']> = { RUNNING: 'info', OK: 'success', FAILED: 'error', SKIPPED: 'warning' };
/** Runs shown when a task's history opens. */
const RUNS_SHOWN = 5;

/**
 * The Schedules tab (owner and co-admins): the server's scheduled tasks, each with its rule in words,
 * its next run on the reader's clock, a pause switch, run now, edit, delete and its recent runs; a
 * dialog creates or changes one.
 */
export default function SchedulesCard({ gameId }: { gameId: string }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const list = useGameRead<ScheduleList>(gameId, 'schedules');
  const schedules = list.data?.data;
  const max = list.data?.max;
  const { run, busy, result, dialog } = useConfirmedAction({ snackbar: true });
  // The dialog: closed, a new task, or one being changed.
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);

  return (
    <Card data-testid="schedules-card">
      {dialog}
      <CardHeader
        title={t('schedules.title')}
        subheader={t('schedules.intro')}
        titleTypographyProps={{ variant: 'h4', component: 'h2' }}
        subheaderTypographyProps={{ variant: 'body2' }}
        action={
          schedules && schedules.length > 0 ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} sx={{ whiteSpace: 'nowrap' }}>
              {t('schedules.add')}
            </Button>
          ) : undefined
        }
        sx={{ flexWrap: 'wrap', rowGap: 1, '& .MuiCardHeader-content': { flex: '1 1 240px' }, '& .MuiCardHeader-action': { m: 0, alignSelf: 'center' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        {list.loading && <LinearProgress aria-label={t('schedules.loading')} />}
        {list.error && !schedules && <LoadError message={`${t('schedules.loadError')} ${errorMessage(list.error)}`} onRetry={list.refetch} />}
        {schedules?.length === 0 && (
          <EmptyState title={t('schedules.empty')}>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('schedules.emptyText')}
            </Typography>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              {t('schedules.add')}
            </Button>
          </EmptyState>
        )}
        {schedules && schedules.length > 0 && (
          <>
            <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label={t('schedules.title')}>
              {schedules.map((schedule) => (
                <ScheduleRow key={schedule.id} gameId={gameId} schedule={schedule} run={run} busy={busy} onChanged={list.refetch} onEdit={() => setEditing(schedule)} />
              ))}
            </Box>
            {max !== undefined && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }} data-testid="schedules-count">
                {t('schedules.count', { count: schedules.length, max })}
              </Typography>
            )}
          </>
        )}
        {result?.severity === 'error' && <ActionAlert result={result} />}
      </CardContent>
      {editing && (
        <ScheduleForm
          gameId={gameId}
          schedule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.refetch();
          }}
        />
      )}
    </Card>
  );
}

/** The reader's language for dates. */
const useLang = () => {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'fr';
};

/** One scheduled task: what, when, the next run, its actions, and its recent runs under a toggle. */
function ScheduleRow({ gameId, schedule, run, busy, onChanged, onEdit }: { gameId: string; schedule: Schedule; run: RunAction; busy: boolean; onChanged: () => void; onEdit: () => void }) {
  const { t } = useTranslation('games');
  const lang = useLang();
  const { mutateAsync: call } = useCustomMutation<ScheduleRun & BaseRecord, ApiError>();
  const { mutateAsync: update } = useUpdate<Schedule, ApiError>();
  const { mutateAsync: destroy } = useDelete<Schedule, ApiError>();
  const target = { resource: 'schedules', id: schedule.id, meta: { params: { gameId } }, ...quiet } as const;
  const [open, setOpen] = useState(false);
  const [runsVersion, setRunsVersion] = useState(0);
  const url = `/v1/game/${encodeURIComponent(gameId)}/schedules/${encodeURIComponent(schedule.id)}`;
  const task = t(`schedules.task.${schedule.task}`);
  const rule = ruleText(t, schedule);
  const name = schedule.command ? `${task} « ${schedule.command} »` : task;

  const toggle = (enabled: boolean) =>
    void run({
      action: async () => {
        await update({ ...target, values: { ...inputOf(schedule), enabled } });
        onChanged();
      },
      success: enabled ? t('schedules.resumed', { name }) : t('schedules.paused', { name }),
      failure: t('schedules.failed'),
    });
  const runNow = () =>
    void run({
      confirm: askFirstTasks.includes(schedule.task)
        ? { title: t('schedules.runTitle', { task }), text: t(`schedules.runText.${schedule.task as 'restart' | 'stop'}`), confirm: t('schedules.runNow') }
        : undefined,
      action: async () => {
        const answer = await call({ url: `${url}/run`, method: 'post', values: {}, meta: { idempotencyKey: newIdempotencyKey() }, ...quiet });
        onChanged();
        setRunsVersion((v) => v + 1);
        setOpen(true);
        return answer.data;
      },
      success: (done) => t(`schedules.ran.${done.status}`, { name }),
      failure: t('schedules.failed'),
    });
  const remove = () =>
    void run({
      confirm: { title: t('schedules.deleteTitle'), text: t('schedules.deleteText', { name, rule }), confirm: t('schedules.delete'), danger: true },
      action: async () => {
        await destroy(target);
        onChanged();
      },
      success: t('schedules.deleted', { name }),
      failure: t('schedules.failed'),
    });

  return (
    <Box component="li" data-testid="schedule-row" data-task={schedule.task} sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', columnGap: 2, rowGap: 1 }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="schedule-task">
            {task}
            {schedule.command && (
              <Box component="code" sx={{ ml: 1, px: 0.75, py: 0.25, borderRadius: 1, bgcolor: 'action.hover', fontSize: '0.875em', fontWeight: 400 }}>
                {schedule.command}
              </Box>
            )}
          </Typography>
          <Typography data-testid="schedule-rule">
            {rule}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              ({schedule.timeZone})
            </Typography>
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="schedule-next">
            {schedule.enabled && schedule.nextRunAt ? t('schedules.next', { date: formatDate(schedule.nextRunAt, lang) }) : t('schedules.pausedNoNext')}
          </Typography>
          {schedule.disabledReason && (
            <Typography variant="body2" color="warning.main" data-testid="schedule-disabled-reason">
              {t(`schedules.disabledReasons.${schedule.disabledReason}`)}
            </Typography>
          )}
          {(schedule.onlyWhenRunning || schedule.countdown) && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.75 }}>
              {schedule.onlyWhenRunning && <Chip size="small" variant="outlined" label={t('schedules.options.onlyWhenRunning')} />}
              {schedule.countdown && <Chip size="small" variant="outlined" label={t('schedules.options.countdown')} />}
            </Box>
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5, ml: 'auto' }}>
          <FormControlLabel
            control={<Switch checked={schedule.enabled} disabled={busy} onChange={(e) => toggle(e.target.checked)} slotProps={{ input: { 'aria-label': t('schedules.enabledOf', { name }) } }} />}
            label={schedule.enabled ? t('schedules.enabled') : t('schedules.disabled')}
            sx={{ mr: 1 }}
          />
          <ActionIcon title={t('schedules.runNow')} aria-label={t('schedules.runNowOf', { name })} disabled={busy} onClick={runNow}>
            <PlayArrowIcon />
          </ActionIcon>
          <ActionIcon title={t('schedules.edit')} aria-label={t('schedules.editOf', { name })} disabled={busy} onClick={onEdit}>
            <EditIcon />
          </ActionIcon>
          <ActionIcon title={t('schedules.delete')} aria-label={t('schedules.deleteOf', { name })} disabled={busy} onClick={remove}>
            <DeleteOutlineIcon />
          </ActionIcon>
        </Box>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
        {schedule.lastRun ? (
          <RunSummary run={schedule.lastRun} label={t('schedules.lastRun')} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('schedules.neverRan')}
          </Typography>
        )}
        <Button size="small" onClick={() => setOpen((o) => !o)} endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />} aria-expanded={open} sx={{ ml: 'auto' }}>
          {t('schedules.history')}
        </Button>
      </Box>
      <Collapse in={open} unmountOnExit>
        <RunList key={runsVersion} url={`${url}/runs`} />
      </Collapse>
    </Box>
  );
}

/** A run's status as a coloured chip, with its time. */
function RunSummary({ run, label }: { run: ScheduleRun; label?: string }) {
  const { t } = useTranslation('games');
  const lang = useLang();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      {label && (
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
      )}
      <Chip size="small" color={runColors[run.status]} label={t(`schedules.runStatus.${run.status}`)} data-testid="run-status" data-status={run.status} />
      <Typography variant="body2" color="text.secondary">
        {formatDate(run.startedAt, lang)}
        {run.manual && ` · ${t('schedules.manual')}`}
        {run.reason && ` · ${t(`schedules.reason.${run.reason}`)}`}
      </Typography>
    </Box>
  );
}

/** A task's recent runs, newest first, each with what the server answered or why it failed. */
function RunList({ url }: { url: string }) {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { query } = useCustom<Page<ScheduleRun> & BaseRecord, ApiError>({ url, method: 'get', config: { query: { size: RUNS_SHOWN } } });
  const runs = query.data?.data.data;
  return (
    <Box sx={{ mt: 1, pl: { xs: 0, sm: 2 }, borderLeft: { sm: 2 }, borderColor: { sm: 'divider' } }} data-testid="schedule-runs">
      {query.isPending && <LinearProgress aria-label={t('schedules.runsLoading')} />}
      {query.isError && <LoadError message={`${t('schedules.runsError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />}
      {runs?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('schedules.noRuns')}
        </Typography>
      )}
      <Stack component="ol" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {runs?.map((r) => (
          <Box component="li" key={r.id} data-testid="schedule-run">
            <RunSummary run={r} />
            {r.output === '' && (
              <Typography variant="body2" color="text.secondary" data-testid="run-output">
                {t('schedules.noOutput')}
              </Typography>
            )}
            {r.output && (
              <Box
                component="pre"
                sx={{
                  m: 0,
                  mt: 0.5,
                  p: 1,
                  borderRadius: 1,
                  bgcolor: 'action.hover',
                  color: r.status === 'FAILED' ? 'error.main' : 'text.primary',
                  fontSize: '0.8rem',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  maxHeight: 160,
                  overflow: 'auto',
                }}
                data-testid="run-output"
              >
                {r.output}
              </Box>
            )}
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
