import { useEffect, useState } from 'react';
import { TextField } from '@mui/material';
import { useCustom, type BaseRecord } from '@refinedev/core';
import { useController, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { AddressNameSuggestion } from '../../../../contract/address-names.ts';
import type { ApiError } from '../../../app/api.ts';
import type { CreateValues } from './values.ts';

type Suggestion = Static<typeof AddressNameSuggestion>;

/** What the player typed, once they stopped typing for a moment: one check per pause, not per key. */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The address players will type: the API's suggestion from the owner's and the server's names,
 * followed while the player has not typed one of their own; theirs is checked as they type (free,
 * reserved, badly formed), and the API checks it again at the purchase.
 */
export function AddressNameField({ control }: { control: Control<CreateValues> }) {
  const { t } = useTranslation('games');
  const { field, fieldState } = useController({ control, name: 'addressName' });
  const name = useSettled(useWatch({ control, name: 'name' }).trim());
  const value = field.value ?? '';
  const typed = useSettled(value.trim());
  // Whether the player typed a name of their own: from then on it is theirs, checked rather than replaced.
  const [own, setOwn] = useState(false);
  const { query } = useCustom<Suggestion & BaseRecord, ApiError>({
    url: '/v1/game/address-name/suggest',
    method: 'get',
    config: { query: { name: name || t('create.addressNameFallback'), ...(own && typed ? { addressName: typed } : {}) } },
    queryOptions: { retry: false, placeholderData: (previous) => previous },
    successNotification: false,
    errorNotification: false,
  });
  const answer = query.data?.data as Suggestion | undefined;
  const { onChange } = field;
  // Until the player writes their own, the field shows the suggestion but the form keeps none: the
  // API makes the same suggestion from the name at the purchase, so a suggestion arriving late does
  // not change the purchase (and its Idempotency-Key) under a retry.
  const shown = own ? value : (answer?.suggestion ?? '');
  const refused = own && answer?.available === false && typed === value.trim() ? answer.reason : undefined;
  const address = `${shown.trim() || '…'}.${answer?.domain ?? ''}`;
  return (
    <TextField
      {...field}
      value={shown}
      onChange={(e) => {
        setOwn(true);
        onChange(e.target.value.toLowerCase());
      }}
      label={t('create.addressName')}
      error={!!fieldState.error || !!refused}
      helperText={fieldState.error?.message ?? refused ?? t('create.addressNameHelp', { address })}
      slotProps={{ htmlInput: { maxLength: 32, spellCheck: false, autoCapitalize: 'none' } }}
      fullWidth
    />
  );
}
