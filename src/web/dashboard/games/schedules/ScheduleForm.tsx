import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  MenuItem,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useForm } from '@refinedev/react-hook-form';
import { Controller, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  SCHEDULE_COMMAND_MAX,
  SCHEDULE_MAX_HOURS,
  SCHEDULE_TIME_PATTERN,
  scheduleRepeats,
  scheduleTasks,
  type Schedule,
  type ScheduleInput,
  type ScheduleRepeat,
  type ScheduleTask,
} from '../../../../contract/schedules.ts';
import { newIdempotencyKey, type ApiError } from '../../../app/api.ts';
import { useErrorMessage } from '../../../ui/states.tsx';
import { browserZone, countdownTasks, isoWeekdays } from './rule.ts';

/**
 * The form's values, and what it sends (a `ScheduleInput`): the form holds the whole rule, '' while
 * the hours are being typed; what it sends has null for what the rule does not use, and whether
 * the task is enabled.
 */
interface Values {
  task: ScheduleTask;
  command: string | null;
  repeat: ScheduleRepeat;
  time: string | null;
  weekdays: number[] | null;
  everyHours: number | '' | null;
  timeZone: string;
  onlyWhenRunning: boolean;
  countdown: boolean;
  enabled?: boolean;
}

const fields: readonly string[] = ['task', 'command', 'repeat', 'time', 'weekdays', 'everyHours', 'timeZone', 'onlyWhenRunning', 'countdown'] satisfies FieldPath<Values>[];
const timePattern = new RegExp(SCHEDULE_TIME_PATTERN);
/** The zones this browser knows, offered as the zone is typed. */
const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

const valuesOf = (schedule: Schedule | null): Values => ({
  task: schedule?.task ?? 'restart',
  command: schedule?.command ?? '',
  repeat: schedule?.repeat ?? 'daily',
  time: schedule?.time ?? '04:00',
  weekdays: schedule?.weekdays ?? [],
  everyHours: schedule?.everyHours ?? 6,
  timeZone: schedule?.timeZone ?? browserZone(),
  onlyWhenRunning: schedule?.onlyWhenRunning ?? false,
  countdown: schedule?.countdown ?? false,
});

/**
 * The dialog that creates a scheduled task, or changes one (`schedule`): what to run, when it repeats,
 * on which clock, and its options. The API's refusals are shown on their fields; others (the limit
 * of tasks per server) above the buttons.
 */
export function ScheduleForm({ gameId, schedule, onClose, onSaved }: { gameId: string; schedule: Schedule | null; onClose: () => void; onSaved: (saved: Schedule) => void }) {
  const { t } = useTranslation('games');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const errorMessage = useErrorMessage();
  // One key per attempt: a double submit is taken once, and a refused one is sent again, corrected, with a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
    refineCore: { onFinish, mutation },
  } = useForm<Schedule, ApiError, Values>({
    defaultValues: valuesOf(schedule),
    refineCoreProps: {
      // POST /v1/game/{id}/schedules, or PUT …/schedules/{scheduleId}; Refine puts the API's field
      // errors on the fields they name.
      resource: 'schedules',
      action: schedule ? 'edit' : 'create',
      id: schedule?.id,
      meta: { params: { gameId }, idempotencyKey },
      queryOptions: { enabled: false },
      redirect: false,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: ({ data }) => onSaved(data),
      onMutationError: () => setIdempotencyKey(newIdempotencyKey()),
    },
  });
  const task = useWatch({ control, name: 'task' });
  const repeat = useWatch({ control, name: 'repeat' });
  // A refusal the fields cannot show (the limit of tasks per server, a field the form has not) is said above the buttons.
  const refusal = mutation.error;
  const unplaced = refusal ? Object.entries(refusal.errors ?? {}).filter(([field]) => !fields.includes(field)) : [];
  const failure =
    refusal && (Object.keys(refusal.errors ?? {}).length === 0 || unplaced.length > 0)
      ? `${t('schedules.form.failed')} ${errorMessage(refusal)}${unplaced.length ? ` (${unplaced.map(([f, m]) => `${f} ${String(m)}`).join(' ; ')})` : ''}`
      : null;

  const submit = handleSubmit((values) => {
    const body = {
      task: values.task,
      command: values.task === 'command' ? values.command : null,
      repeat: values.repeat,
      time: values.repeat === 'hours' ? null : (values.time ?? '').trim(),
      weekdays: values.repeat === 'weekdays' ? values.weekdays : null,
      everyHours: values.repeat === 'hours' ? Number(values.everyHours) : null,
      timeZone: values.timeZone.trim(),
      onlyWhenRunning: values.onlyWhenRunning,
      countdown: countdownTasks.includes(values.task) && values.countdown,
      enabled: schedule?.enabled ?? true,
    } satisfies ScheduleInput;
    return onFinish(body).catch(() => {});
  });

  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="schedule-form-title">
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="schedule-form" sx={{ display: 'contents' }}>
        <DialogTitle id="schedule-form-title">{schedule ? t('schedules.form.editTitle') : t('schedules.form.createTitle')}</DialogTitle>
        <DialogContent>
          <Box sx={{ display: 'grid', gap: 2, pt: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <Controller
              control={control}
              name="task"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  select
                  label={t('schedules.form.task')}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? t(`schedules.taskHelp.${field.value}`)}
                  sx={{ gridColumn: '1 / -1' }}
                >
                  {scheduleTasks.map((name) => (
                    <MenuItem key={name} value={name}>
                      {t(`schedules.task.${name}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            {task === 'command' && (
              <Controller
                control={control}
                name="command"
                rules={{ validate: (v) => (v ?? '').trim().replace(/^\//, '') !== '' || t('schedules.form.commandRequired') }}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('schedules.form.command')}
                    placeholder={t('schedules.form.commandPlaceholder')}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message ?? t('schedules.form.commandHelp')}
                    slotProps={{ htmlInput: { maxLength: SCHEDULE_COMMAND_MAX, spellCheck: false, autoCapitalize: 'off' } }}
                    sx={{ gridColumn: '1 / -1', '& input': { fontFamily: 'monospace' } }}
                  />
                )}
              />
            )}
            <Controller
              control={control}
              name="repeat"
              render={({ field, fieldState }) => (
                <TextField {...field} select label={t('schedules.form.repeat')} error={!!fieldState.error} helperText={fieldState.error?.message}>
                  {scheduleRepeats.map((name) => (
                    <MenuItem key={name} value={name}>
                      {t(`schedules.repeat.${name}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            {repeat === 'hours' ? (
              <Controller
                control={control}
                name="everyHours"
                rules={{
                  validate: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= SCHEDULE_MAX_HOURS) || t('schedules.form.everyHoursRange', { max: SCHEDULE_MAX_HOURS }),
                }}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                    type="number"
                    label={t('schedules.form.everyHours')}
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message ?? t('schedules.form.everyHoursHelp')}
                    slotProps={{ htmlInput: { min: 1, max: SCHEDULE_MAX_HOURS } }}
                  />
                )}
              />
            ) : (
              <Controller
                control={control}
                name="time"
                rules={{ validate: (v) => timePattern.test((v ?? '').trim()) || t('schedules.form.timeFormat') }}
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('schedules.form.time')}
                    placeholder="HH:MM"
                    error={!!fieldState.error}
                    helperText={fieldState.error?.message ?? t('schedules.form.timeHelp')}
                    slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' } }}
                  />
                )}
              />
            )}
            {repeat === 'weekdays' && (
              <Controller
                control={control}
                name="weekdays"
                rules={{ validate: (v) => (v?.length ?? 0) > 0 || t('schedules.form.weekdaysRequired') }}
                render={({ field, fieldState }) => (
                  <FormControl error={!!fieldState.error} sx={{ gridColumn: '1 / -1' }}>
                    <FormLabel id="schedule-weekdays" sx={{ mb: 0.5 }}>
                      {t('schedules.form.weekdays')}
                    </FormLabel>
                    <ToggleButtonGroup
                      aria-labelledby="schedule-weekdays"
                      value={field.value}
                      onChange={(_, days: number[]) => field.onChange([...days].sort((a, b) => a - b))}
                      size="small"
                      color="primary"
                      sx={{ flexWrap: 'wrap' }}
                    >
                      {isoWeekdays.map((d) => (
                        <ToggleButton key={d} value={d} aria-label={t(`schedules.days.long.${d}`)} sx={{ minWidth: 44 }}>
                          {t(`schedules.days.short.${d}`)}
                        </ToggleButton>
                      ))}
                    </ToggleButtonGroup>
                    {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
                  </FormControl>
                )}
              />
            )}
            <Controller
              control={control}
              name="timeZone"
              rules={{ validate: (v) => v.trim() !== '' || t('schedules.form.timeZoneRequired') }}
              render={({ field, fieldState }) => (
                <Autocomplete
                  freeSolo
                  options={zones}
                  value={field.value}
                  inputValue={field.value}
                  onInputChange={(_, value) => field.onChange(value)}
                  onChange={(_, value) => field.onChange(value ?? '')}
                  sx={{ gridColumn: '1 / -1' }}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      inputRef={field.ref}
                      onBlur={field.onBlur}
                      label={t('schedules.form.timeZone')}
                      error={!!fieldState.error}
                      helperText={fieldState.error?.message ?? t('schedules.form.timeZoneHelp', { zone: browserZone() })}
                    />
                  )}
                />
              )}
            />
          </Box>
          <Box sx={{ display: 'flex', flexDirection: 'column', mt: 1 }}>
            <Controller
              control={control}
              name="onlyWhenRunning"
              render={({ field }) => <FormControlLabel control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t('schedules.form.onlyWhenRunning')} />}
            />
            {countdownTasks.includes(task) && (
              <Controller
                control={control}
                name="countdown"
                render={({ field }) => <FormControlLabel control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t('schedules.form.countdown')} />}
              />
            )}
          </Box>
          {failure && (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="schedule-form-error">
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('schedules.form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {schedule ? t('schedules.form.save') : t('schedules.form.create')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
