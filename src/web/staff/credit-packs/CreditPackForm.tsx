import { Box } from '@mui/material';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MoneyInput, NumberInput, TextInput } from '../fields.tsx';

/**
 * The form's values, and what it sends: numbers are null until typed (the required ones are checked
 * before sending); the bonus and the label are left out of what is sent when empty.
 */
export interface CreditPackValues {
  credits: number | null;
  bonusCredits?: number | null;
  priceCents: number | null;
  currency: string;
  /** Null on a pack that has none (the edit form loads it so). */
  label?: { fr: string; en: string } | null;
}

export const emptyPack: CreditPackValues = { credits: null, bonusCredits: null, priceCents: null, currency: 'EUR', label: { fr: '', en: '' } };

const hasLabel = (v: CreditPackValues) => !!(v.label?.fr.trim() || v.label?.en.trim());

/** What is sent: no bonus and no label are left out; a label goes in both languages. */
export const toPricingRequest = (v: CreditPackValues): CreditPackValues => ({
  credits: v.credits,
  priceCents: v.priceCents,
  currency: v.currency,
  ...(v.bonusCredits ? { bonusCredits: v.bonusCredits } : {}),
  ...(hasLabel(v) ? { label: { fr: v.label?.fr ?? '', en: v.label?.en ?? '' } } : {}),
});

/** A pack's label, credits, bonus credits and price. */
export function CreditPackFields({ control, currency, values }: { control: Control<CreditPackValues>; currency: string; values: CreditPackValues }) {
  const { t } = useTranslation('staff');
  const f = (key: string) => t(`creditPacks.fields.${key}`);
  // The label is optional, but once given it is given in both languages: each page shows its own.
  const labelled = hasLabel(values);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <TextInput control={control} name="label.fr" label={f('labelFr')} help={f('labelHelp')} required={labelled} />
      <TextInput control={control} name="label.en" label={f('labelEn')} help={f('labelHelp')} required={labelled} />
      <NumberInput control={control} name="credits" label={f('credits')} required />
      <NumberInput control={control} name="bonusCredits" label={f('bonusCredits')} help={f('bonusHelp')} />
      <MoneyInput control={control} name="priceCents" label={f('price')} currency={currency} required />
      <TextInput control={control} name="currency" label={f('currency')} help={f('currencyHelp')} required />
    </Box>
  );
}
