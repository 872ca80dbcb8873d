import { TextField, type SxProps, type Theme } from '@mui/material';
import { Controller, type Control } from 'react-hook-form';

/** The API's longest group name. */
const GROUP_NAME_MAX = 50;

export interface GroupNameValues {
  name: string;
}

/** A group's name: the API's word on it (too long, taken) shows under the field after a save. */
export function GroupNameInput({ control, label, autoFocus, sx }: { control: Control<GroupNameValues>; label: string; autoFocus?: boolean; sx?: SxProps<Theme> }) {
  return (
    <Controller
      control={control}
      name="name"
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          size="small"
          label={label}
          autoFocus={autoFocus}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
          slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX } }}
          sx={sx}
        />
      )}
    />
  );
}
