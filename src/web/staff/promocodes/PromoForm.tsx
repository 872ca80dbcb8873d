import { Box } from '@mui/material';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { promoKinds, type PromoCode } from '../../../contract/promocodes.ts';
import { DateTimeInput, NumberInput, SelectInput, TextInput } from '../fields.tsx';

/**
 * The form's values, and what it sends: numbers and dates are null until given, and left out of
 * what is sent when not given; the code is sent once, at creation.
 */
export interface PromoValues {
  code?: string;
  kind: PromoCode['kind'];
  value: number | null;
  maxUses?: number | null;
  validFrom?: string | null;
  validUntil?: string | null;
}

export const emptyPromo: PromoValues = { code: '', kind: 'PERCENT_OFF', value: null, maxUses: null, validFrom: null, validUntil: null };

/** A code's terms as the API takes them: an absent limit or date is no limit. */
export const toTerms = (v: PromoValues): PromoValues => ({
  kind: v.kind,
  value: v.value,
  ...(v.maxUses ? { maxUses: v.maxUses } : {}),
  ...(v.validFrom ? { validFrom: v.validFrom } : {}),
  ...(v.validUntil ? { validUntil: v.validUntil } : {}),
});

export const toCreateRequest = (v: PromoValues): PromoValues => ({ code: v.code?.trim() ?? '', ...toTerms(v) });

/** What a code gives, in words: "10 % off" or "+ 50 credits". */
export function useDescribePromo() {
  const { t } = useTranslation('staff');
  return (p: Pick<PromoCode, 'kind' | 'value'>) => t(`promoCodes.kinds.${p.kind}.short`, { value: p.value });
}

/** A code's name (set once, at creation), what it gives, how often and when. */
export function PromoFields({ control, creating, kind }: { control: Control<PromoValues>; creating: boolean; kind: PromoCode['kind'] }) {
  const { t } = useTranslation('staff');
  const f = (key: string) => t(`promoCodes.fields.${key}`);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <TextInput
        control={control}
        name="code"
        label={f('code')}
        help={creating ? f('codeHelp') : f('codeFixed')}
        required={creating}
        disabled={!creating}
        slotProps={{ htmlInput: { style: { textTransform: 'uppercase' } } }}
      />
      <SelectInput control={control} name="kind" label={f('kind')} required options={promoKinds.map((k) => ({ value: k, label: t(`promoCodes.kinds.${k}.label`) }))} />
      <NumberInput control={control} name="value" label={t(`promoCodes.kinds.${kind}.value`)} required />
      <NumberInput control={control} name="maxUses" label={f('maxUses')} help={f('maxUsesHelp')} />
      <DateTimeInput control={control} name="validFrom" label={f('validFrom')} help={f('noLimit')} />
      <DateTimeInput control={control} name="validUntil" label={f('validUntil')} help={f('noLimit')} />
    </Box>
  );
}
