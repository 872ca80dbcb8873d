import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import { useAutocomplete } from '@refinedev/mui';
import type { StaffUser } from '../../../contract/staff.ts';

/**
 * A user picked by a prefix of their name, email or Minecraft name (the API searches), for the
 * lists filtered by user; `value` is the user's id.
 */
export function UserPicker({ value, onChange, label, testId }: { value: string; onChange: (id: string | null) => void; label: string; testId?: string }) {
  const { autocompleteProps } = useAutocomplete<StaffUser>({
    resource: 'users',
    defaultValue: value || undefined,
    selectedOptionsOrder: 'selected-first',
    onSearch: (q) => (q.trim() ? [{ field: 'q', operator: 'contains', value: q.trim() }] : []),
    sorters: [{ field: 'name', order: 'asc' }],
    pagination: { pageSize: 10 },
    debounce: 300,
  });
  const selected = autocompleteProps.options.find((u) => u.id === value) ?? null;
  return (
    <Autocomplete
      {...autocompleteProps}
      value={selected}
      onChange={(_, user) => onChange(user?.id ?? null)}
      getOptionLabel={(user) => user.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderOption={({ key, ...props }, user) => (
        <Box component="li" key={key} {...props}>
          <Box>
            {user.name}
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {[user.email, user.mcName].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
        </Box>
      )}
      size="small"
      sx={{ minWidth: { xs: '100%', sm: 240 } }}
      renderInput={(params) => <TextField {...params} label={label} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': testId } }} />}
    />
  );
}
