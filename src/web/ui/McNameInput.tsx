import { TextField, type SxProps, type Theme } from '@mui/material';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MC_NAME_PATTERN } from '../../contract/values.ts';

const mcName = new RegExp(MC_NAME_PATTERN);

/** True for a name Minecraft accepts (3 to 16 letters, digits or underscores), spaces around ignored. */
export const isMcName = (name: string) => mcName.test(name.trim());

/**
 * A Minecraft name field of a react-hook-form form: checked as it is typed, and after a submit the
 * API's own word for the field (the form's `setError`) replaces the help under it.
 */
export function McNameInput<T extends FieldValues>({ control, name, label, help, sx }: { control: Control<T>; name: Path<T>; label: string; help?: string; sx?: SxProps<Theme> }) {
  const { t } = useTranslation('social');
  return (
    <Controller
      control={control}
      name={name}
      rules={{ validate: (v: string) => v.trim() === '' || isMcName(v) || t('invalidName') }}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          size="small"
          label={label}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? help}
          slotProps={{ htmlInput: { maxLength: 16, autoComplete: 'off' } }}
          sx={sx}
        />
      )}
    />
  );
}
