import { Box, Card, CardContent, FormControl, FormHelperText, InputLabel, MenuItem, Select, Stack, TextField } from '@mui/material';
import { Controller, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddressNameField } from './AddressNameField.tsx';
import { difficulties, gameModes, type CreateValues } from './values.ts';

/** A text field of the form; its error is the client's rule or, after a submit, the API's word for it. */
function Text({
  control,
  name,
  label,
  help,
  maxLength,
  required,
}: {
  control: Control<CreateValues>;
  name: FieldPath<CreateValues>;
  label: string;
  help: string;
  maxLength: number;
  required?: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      rules={required ? { validate: (v) => (typeof v === 'string' && v.trim() !== '') || required } : undefined}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={field.value as string}
          label={label}
          required={!!required}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? help}
          slotProps={{ htmlInput: { maxLength } }}
          fullWidth
        />
      )}
    />
  );
}

/** One of a list of values (game mode, difficulty), each with its translated label. */
function Choice({
  control,
  name,
  label,
  options,
  labelKey,
}: {
  control: Control<CreateValues>;
  name: 'settings.gameMode' | 'settings.difficulty';
  label: string;
  options: readonly string[];
  labelKey: string;
}) {
  const { t } = useTranslation('games');
  const id = `${name.replace('.', '-')}-label`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormControl fullWidth error={!!fieldState.error}>
          <InputLabel id={id}>{label}</InputLabel>
          <Select labelId={id} label={label} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}>
            {options.map((m) => (
              <MenuItem key={m} value={m}>
                {t(`${labelKey}.${m}`)}
              </MenuItem>
            ))}
          </Select>
          {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
        </FormControl>
      )}
    />
  );
}

/** The server's name, its address and its world: MOTD, game mode, difficulty and seed. */
export function WorldFields({ control }: { control: Control<CreateValues> }) {
  const { t } = useTranslation('games');
  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Text control={control} name="name" label={t('create.name')} help={t('create.nameHelp')} maxLength={60} required={t('create.nameRequired')} />
          <AddressNameField control={control} />
          <Text control={control} name="settings.motd" label={t('create.motd')} help={t('create.motdHelp')} maxLength={59} />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <Choice control={control} name="settings.gameMode" label={t('create.gameMode')} options={gameModes} labelKey="gameMode" />
            <Choice control={control} name="settings.difficulty" label={t('create.difficulty')} options={difficulties} labelKey="difficulty" />
          </Box>
          <Text control={control} name="settings.seed" label={t('create.seed')} help={t('create.seedHelp')} maxLength={32} />
        </Stack>
      </CardContent>
    </Card>
  );
}
