import { useState, type ReactNode } from 'react';
import { FormControlLabel, FormHelperText, InputAdornment, MenuItem, Switch, TextField, type TextFieldProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/** The rule of a field that must be filled, with its message. */
function useRequired(required: boolean | undefined) {
  const { t } = useTranslation('staff');
  return required ? { required: t('form.required') } : undefined;
}

interface FieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  /** Shown under the field until an error replaces it. */
  help?: ReactNode;
}

/**
 * A text field bound to the form, controlled so its label stays above a value loaded later; the
 * error under it is the client's rule or, after a save, the API's word for that field.
 */
export function TextInput<T extends FieldValues>({ control, name, label, help, required, ...props }: FieldProps<T> & Omit<TextFieldProps, 'name' | 'label'>) {
  const rules = useRequired(required);
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          value={field.value ?? ''}
          label={label}
          required={required}
          error={!!fieldState.error}
          helperText={fieldState.error?.message || (fieldState.error ? undefined : help)}
          fullWidth
        />
      )}
    />
  );
}

/** A whole number; left empty it is absent (the API decides whether it may be). */
export function NumberInput<T extends FieldValues>({ control, name, label, help, required, ...props }: FieldProps<T> & Omit<TextFieldProps, 'name' | 'label'>) {
  const rules = useRequired(required);
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          type="number"
          value={field.value ?? ''}
          onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
          label={label}
          required={required}
          error={!!fieldState.error}
          helperText={fieldState.error?.message || (fieldState.error ? undefined : help)}
          fullWidth
        />
      )}
    />
  );
}

/** One of a list of values, each with its label. */
export function SelectInput<T extends FieldValues>({ control, name, label, help, options, required }: FieldProps<T> & { options: Array<{ value: string; label: string }>; required?: boolean }) {
  const rules = useRequired(required);
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          select
          value={field.value ?? ''}
          label={label}
          required={required}
          error={!!fieldState.error}
          helperText={fieldState.error?.message || (fieldState.error ? undefined : help)}
          fullWidth
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** A yes/no switch. */
export function SwitchInput<T extends FieldValues>({ control, name, label, help }: FieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <div>
          <FormControlLabel control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} inputRef={field.ref} />} label={label} />
          {(fieldState.error || help) && <FormHelperText error={!!fieldState.error}>{fieldState.error?.message || help}</FormHelperText>}
        </div>
      )}
    />
  );
}

/**
 * An amount of money typed in units (4.99 or 4,99) and kept in cents, as the API counts it; text
 * that is no amount is kept as typed, for the API to name the field.
 */
export function MoneyInput<T extends FieldValues>({ control, name, label, help, required, currency }: FieldProps<T> & { required?: boolean; currency?: string }) {
  const rules = useRequired(required);
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => (
        <TextField
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          value={typed ?? (typeof field.value === 'number' ? (field.value / 100).toFixed(2) : (field.value ?? ''))}
          onChange={(e) => {
            const text = e.target.value;
            setTyped(text);
            const units = Number(text.replace(',', '.'));
            field.onChange(text.trim() === '' ? null : Number.isFinite(units) ? Math.round(units * 100) : text);
          }}
          label={label}
          required={required}
          error={!!fieldState.error}
          helperText={fieldState.error?.message || (fieldState.error ? undefined : help)}
          slotProps={{ htmlInput: { inputMode: 'decimal' }, input: currency ? { endAdornment: <InputAdornment position="end">{currency}</InputAdornment> } : undefined }}
          fullWidth
        />
      )}
    />
  );
}

/** `datetime-local`'s value (the reader's local time) of an ISO instant. */
const localInput = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** A date and time in the reader's time zone, kept as an ISO instant (null when empty). */
export function DateTimeInput<T extends FieldValues>({ control, name, label, help }: FieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          type="datetime-local"
          value={typeof field.value === 'string' ? localInput(field.value) : ''}
          onChange={(e) => field.onChange(e.target.value ? new Date(e.target.value).toISOString() : null)}
          label={label}
          error={!!fieldState.error}
          helperText={fieldState.error?.message || (fieldState.error ? undefined : help)}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
        />
      )}
    />
  );
}
