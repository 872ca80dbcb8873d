import { useState } from 'react';
import { useCustom, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { PromoCodeCheck } from '../../../../contract/promocodes.ts';
import { errorText, type ApiError } from '../../../app/api.ts';
import { useErrorMessage } from '../../../ui/states.tsx';

const CODE = /^[A-Za-z0-9_-]{3,32}$/;

/** A promo code typed on the create form, checked against the API for a game when applied. */
export function usePromoCode() {
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const [code, setCodeText] = useState('');
  // The code last applied: it is checked, and stays checked until the text changes.
  const [applied, setApplied] = useState<string | null>(null);
  const { query } = useCustom<PromoCodeCheck & BaseRecord, ApiError>({
    url: `/v1/promocode/${encodeURIComponent(applied ?? '')}?for=GAME`,
    method: 'get',
    queryOptions: { enabled: applied !== null, retry: false },
    successNotification: false,
    errorNotification: false,
  });
  const promo = applied !== null && query.isSuccess ? (query.data.data as PromoCodeCheck) : null;
  const err = applied !== null && query.isError ? query.error : null;
  const error = !err ? null : err.status === 404 ? t('create.promoUnknown') : err.status === 422 ? `${t('create.promoUnusable')} ${errorText(err)}` : `${t('create.promoFailed')} ${errorMessage(err)}`;
  const valid = CODE.test(code.trim());
  return {
    code,
    setCode: (text: string) => {
      setCodeText(text.toUpperCase());
      setApplied(null);
    },
    valid,
    apply: () => valid && setApplied(code.trim()),
    promo,
    error,
  };
}
