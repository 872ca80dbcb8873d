import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, Typography } from '@mui/material';
import { useCustomMutation, useInvalidate, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import type { AccountSecurity, RecoveryCodes, TwoFactorDisable, TwoFactorEnable, TwoFactorSetup } from '../../../contract/account.ts';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { FormField } from './FormField.tsx';

/**
 * Two-factor sign-in: off, it offers a setup (QR code and key, confirmed by a first code), then
 * shows the recovery codes once; on, it turns off with the password and a code, after asking.
 */
export function TwoFactorCard({ security }: { security: AccountSecurity | undefined }) {
  const { t } = useTranslation('account');
  const invalidate = useInvalidate();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { mutateAsync } = useCustomMutation<TwoFactorSetup>();
  const { run, busy, result, dialog } = useConfirmedAction();
  const refresh = () => invalidate({ resource: 'account', invalidates: ['detail'], id: 'security' });

  const start = () =>
    void run({
      action: async () => setSetup((await mutateAsync({ url: '/v1/account/two-factor/setup', method: 'post', values: {}, successNotification: false, errorNotification: false })).data),
      failure: t('twoFactor.setupFailed'),
    });

  return (
    <Card component="section" aria-labelledby="two-factor-title">
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
          <Typography id="two-factor-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
            {t('twoFactor.title')}
          </Typography>
          {security && <Chip size="small" color={security.twoFactor ? 'success' : 'default'} label={t(security.twoFactor ? 'twoFactor.stateOn' : 'twoFactor.stateOff')} />}
        </Box>
        {codes ? (
          <RecoveryCodesShown
            codes={codes}
            onDone={() => {
              setCodes(null);
              void refresh();
            }}
          />
        ) : setup ? (
          <EnableForm
            setup={setup}
            onCancel={() => setSetup(null)}
            onEnabled={(recovery) => {
              setSetup(null);
              setCodes(recovery);
            }}
          />
        ) : security?.twoFactor ? (
          <>
            <Typography color="text.secondary">{t('twoFactor.on')}</Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('twoFactor.codesLeft', { count: security.recoveryCodesLeft })}
            </Typography>
            <DisableForm run={run} busy={busy} onDisabled={() => void refresh()} />
          </>
        ) : (
          <>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('twoFactor.off')}
            </Typography>
            <Button variant="contained" onClick={start} disabled={busy || !security}>
              {t('twoFactor.start')}
            </Button>
          </>
        )}
        <ActionAlert result={result} testId="two-factor-result" />
        {dialog}
      </CardContent>
    </Card>
  );
}

function EnableForm({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation('account');
  const { run, busy, result } = useConfirmedAction();
  const { control, handleSubmit, refineCore } = useForm<RecoveryCodes, HttpError, TwoFactorEnable>({
    defaultValues: { code: '' },
    refineCoreProps: { resource: 'twoFactor', action: 'create', redirect: false, successNotification: false, errorNotification: false },
  });
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        const answer = await refineCore.onFinish({ code: values.code.trim() });
        onEnabled((answer as { data: RecoveryCodes }).data.recoveryCodes);
      },
      failure: t('twoFactor.enableFailed'),
    }),
  );
  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t('twoFactor.scan')}</Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-start' }}>
        <Box component="img" src={setup.qrCode} alt={t('twoFactor.qrAlt')} data-testid="two-factor-qr" sx={{ width: 200, height: 200, bgcolor: '#fff', borderRadius: 1, p: 0.5 }} />
        <Box sx={{ flex: '1 1 240px', display: 'grid', gap: 2 }}>
          <Box>
            <Typography variant="overline" color="text.secondary" component="p">
              {t('twoFactor.secret')}
            </Typography>
            <Typography data-testid="two-factor-secret" sx={{ fontFamily: 'monospace', fontSize: '1rem', overflowWrap: 'anywhere', userSelect: 'all' }}>
              {setup.secret}
            </Typography>
          </Box>
          <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'grid', gap: 2 }}>
            <FormField control={control} name="code" autoComplete="one-time-code" label={t('twoFactor.code')} maxLength={20} />
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button type="submit" variant="contained" disabled={busy}>
                {t('twoFactor.confirm')}
              </Button>
              <Button onClick={onCancel}>{t('twoFactor.cancel')}</Button>
            </Box>
          </Box>
        </Box>
      </Box>
      <ActionAlert result={result} testId="two-factor-enable-result" />
    </Box>
  );
}

function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  return (
    <Alert severity="warning" icon={false} sx={{ display: 'block' }}>
      <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 700, mb: 1 }}>
        {t('twoFactor.codesTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('twoFactor.codesText')}</Typography>
      <Box
        component="ul"
        data-testid="recovery-codes"
        sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 0.5, gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))', fontFamily: 'monospace', fontSize: '1rem' }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Button variant="contained" onClick={onDone}>
        {t('twoFactor.codesDone')}
      </Button>
    </Alert>
  );
}

function DisableForm({ run, busy, onDisabled }: { run: ReturnType<typeof useConfirmedAction>['run']; busy: boolean; onDisabled: () => void }) {
  const { t } = useTranslation('account');
  const { control, handleSubmit, reset, refineCore } = useForm<object, HttpError, TwoFactorDisable>({
    defaultValues: { password: '', code: '' },
    refineCoreProps: { resource: 'twoFactorOff', action: 'create', redirect: false, successNotification: false, errorNotification: false },
  });
  const submit = handleSubmit((values) =>
    run({
      confirm: { title: t('twoFactor.disableTitle'), text: t('twoFactor.disableConfirmText'), confirm: t('twoFactor.disable') },
      action: async () => {
        await refineCore.onFinish({ password: values.password, code: values.code.trim() });
        reset();
        onDisabled();
      },
      success: t('twoFactor.disabled'),
      failure: t('twoFactor.disableFailed'),
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
      <Typography variant="subtitle2">{t('twoFactor.disableText')}</Typography>
      <FormField control={control} name="password" type="password" autoComplete="current-password" label={t('twoFactor.password')} />
      <FormField control={control} name="code" autoComplete="one-time-code" label={t('twoFactor.codeOrRecovery')} maxLength={20} />
      <Button type="submit" variant="outlined" color="error" disabled={busy} sx={{ justifySelf: 'start' }}>
        {t('twoFactor.disable')}
      </Button>
    </Box>
  );
}
