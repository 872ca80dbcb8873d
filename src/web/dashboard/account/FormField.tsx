import { TextField } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/** A text field of a security form: the API's word on it (wrong password, weak, taken) shows under it after a submit. */
export function FormField<T extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  autoComplete,
  help,
  maxLength = 200,
}: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  type?: string;
  autoComplete: string;
  help?: string;
  maxLength?: number;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          id={`field-${name}`}
          size="small"
          fullWidth
          type={type}
          label={label}
          autoComplete={autoComplete}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? help}
          slotProps={{ htmlInput: { maxLength } }}
        />
      )}
    />
  );
}
