import { useState, type ReactNode } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useForm, type Control, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorText, type ApiError } from '../app/api.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { TextInput } from './fields.tsx';

export interface Confirmation {
  title: string;
  text: string;
  confirm: string;
}

/**
 * A staff action on one record (credits, stop, extend, refund, hide, restore): a form in a dialog,
 * POSTed to `url` through Refine. The API's field errors show on their fields, any other refusal
 * above the form; an action the staff member may regret is asked again before it is sent.
 */
export function ActionDialog<T extends FieldValues, R extends BaseRecord = BaseRecord>({
  open,
  onClose,
  title,
  text,
  url,
  defaultValues,
  submitLabel,
  danger = false,
  confirmation,
  refusal,
  success,
  onDone,
  fields,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  text?: ReactNode;
  url: string;
  defaultValues: DefaultValues<T>;
  submitLabel: string;
  danger?: boolean;
  /** Asked before sending these values, or not when null. */
  confirmation?: (values: T) => Confirmation | null;
  /** The words for a refusal the staff member can act on (a 409), else the API's own. */
  refusal?: (error: ApiError) => string | null;
  /** The snackbar's text once done. */
  success: (result: R) => string;
  onDone?: (result: R) => void;
  fields: (control: Control<T>) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation('staff');
  const form = useForm<T>({ defaultValues, mode: 'onSubmit' });
  const { mutate, mutation } = useCustomMutation<R, ApiError, T>();
  const [asking, setAsking] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    setFailure(null);
    setAsking(null);
    form.reset(defaultValues);
    onClose();
  };

  const send = (values: T) => {
    setAsking(null);
    setFailure(null);
    mutate(
      {
        url,
        method: 'post',
        values,
        successNotification: (response) => ({ type: 'success', message: response ? success(response.data) : '' }),
        // The dialog says what went wrong itself, beside the fields.
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          onDone?.(data);
          close();
        },
        onError: (err) => {
          const fieldErrors = Object.entries(err.errors ?? {});
          for (const [field, message] of fieldErrors) form.setError(field as Path<T>, { type: 'server', message: String(message) });
          if (fieldErrors.length === 0) setFailure(refusal?.(err) ?? `${t('actions.failed')} ${errorText(err)}`);
        },
      },
    );
  };

  const submit = form.handleSubmit((values) => {
    const ask = confirmation?.(values);
    if (ask) setAsking(values);
    else send(values);
  });
  const ask = asking && confirmation?.(asking);

  return (
    <>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="action-title" data-testid={testId}>
        <form onSubmit={submit} noValidate>
          <DialogTitle id="action-title">{title}</DialogTitle>
          <DialogContent>
            {text && <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>}
            {failure && (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="action-error">
                {failure}
              </Alert>
            )}
            <Stack spacing={2} sx={{ pt: 1 }}>
              {fields(form.control)}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('buttons.cancel')}</Button>
            <Button type="submit" variant="contained" color={danger ? 'error' : 'primary'} disabled={mutation.isPending}>
              {submitLabel}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      {ask && <ConfirmDialog open title={ask.title} text={ask.text} confirm={ask.confirm} onConfirm={() => send(asking)} onClose={() => setAsking(null)} />}
    </>
  );
}

/** Why the staff member acts: required, kept in the audit log (and told to the player where it concerns them). */
export function ReasonInput<T extends FieldValues & { reason: string }>({ control }: { control: Control<T> }) {
  const { t } = useTranslation('staff');
  return (
    <TextInput
      control={control}
      name={'reason' as Path<T>}
      label={t('actions.reason')}
      help={t('actions.reasonHelp')}
      required
      multiline
      minRows={2}
      slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'action-reason' } }}
    />
  );
}
