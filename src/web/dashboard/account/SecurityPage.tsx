import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useOne, useInvalidate, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AccountSecurity, EmailChange, PasswordChange } from '../../../contract/account.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { FormField } from './FormField.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';
import { useExternalAccount } from './useExternalAccount.ts';

/**
 * /dashboard/account/security: the password, the email address and two-factor sign-in on the
 * embedded provider; with another issuer, a link to its account console.
 */
export function SecurityPage() {
  const { t } = useTranslation('account');
  const to = useLocalePath();
  const external = useExternalAccount();
  return (
    <>
      <title>{`${t('title')} · BlockHost`}</title>
      <Button component={RouterLink} to={to('/dashboard/account')} sx={{ mb: 1 }}>
        {t('back')}
      </Button>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('title')}
      </Typography>
      {external ? (
        <Card>
          <CardContent>
            <Typography sx={{ mb: 2 }}>{t('external.text')}</Typography>
            <Button variant="contained" href={external}>
              {t('external.open')}
            </Button>
          </CardContent>
        </Card>
      ) : (
        <EmbeddedSecurity />
      )}
    </>
  );
}

function EmbeddedSecurity() {
  const { t } = useTranslation('account');
  const errorMessage = useErrorMessage();
  const { query } = useOne<AccountSecurity>({ resource: 'account', id: 'security' });
  if (query.isError) return <LoadError message={`${t('loadFailed')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />;
  const security = query.data?.data;
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, alignItems: 'start' }}>
      <PasswordCard />
      <EmailCard email={security?.email} />
      <Box sx={{ gridColumn: { md: '1 / -1' } }}>
        <TwoFactorCard security={security} />
      </Box>
    </Box>
  );
}

function PasswordCard() {
  const { t } = useTranslation('account');
  const { run, busy, result } = useConfirmedAction();
  const { control, handleSubmit, reset, refineCore } = useForm<object, HttpError, PasswordChange>({
    defaultValues: { currentPassword: '', newPassword: '' },
    refineCoreProps: { resource: 'account', action: 'edit', id: 'password', redirect: false, queryOptions: { enabled: false }, successNotification: false, errorNotification: false },
  });
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        await refineCore.onFinish(values);
        reset();
      },
      success: t('password.done'),
      failure: t('password.failed'),
    }),
  );
  return (
    <Card component="section" aria-labelledby="password-title">
      <CardContent>
        <Typography id="password-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          {t('password.title')}
        </Typography>
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'grid', gap: 2 }}>
          <FormField control={control} name="currentPassword" type="password" autoComplete="current-password" label={t('password.current')} />
          <FormField control={control} name="newPassword" type="password" autoComplete="new-password" label={t('password.new')} help={t('password.rules')} />
          <Button type="submit" variant="contained" disabled={busy} sx={{ justifySelf: 'start' }}>
            {t('password.submit')}
          </Button>
        </Box>
        <ActionAlert result={result} testId="password-result" />
      </CardContent>
    </Card>
  );
}

function EmailCard({ email }: { email: string | undefined }) {
  const { t } = useTranslation('account');
  const invalidate = useInvalidate();
  const { run, busy, result } = useConfirmedAction();
  const { control, handleSubmit, reset, refineCore } = useForm<object, HttpError, EmailChange>({
    defaultValues: { newEmail: '', password: '' },
    refineCoreProps: { resource: 'accountEmail', action: 'create', redirect: false, successNotification: false, errorNotification: false },
  });
  const submit = handleSubmit((values) =>
    run({
      action: async () => {
        await refineCore.onFinish(values);
        reset();
        await invalidate({ resource: 'account', invalidates: ['detail'], id: 'security' });
        return values.newEmail.trim();
      },
      success: (sentTo) => t('email.sent', { email: sentTo }),
      failure: t('email.failed'),
    }),
  );
  return (
    <Card component="section" aria-labelledby="email-title">
      <CardContent>
        <Typography id="email-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
          {t('email.title')}
        </Typography>
        {email && <Typography sx={{ mb: 2, overflowWrap: 'anywhere' }}>{t('email.current', { email })}</Typography>}
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'grid', gap: 2 }}>
          <FormField control={control} name="newEmail" type="email" autoComplete="email" label={t('email.new')} maxLength={254} />
          <FormField control={control} name="password" type="password" autoComplete="current-password" label={t('email.password')} />
          <Button type="submit" variant="contained" disabled={busy} sx={{ justifySelf: 'start' }}>
            {t('email.submit')}
          </Button>
        </Box>
        <ActionAlert result={result} testId="email-result" />
      </CardContent>
    </Card>
  );
}
