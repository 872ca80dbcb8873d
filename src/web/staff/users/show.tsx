import { useState, type ReactNode } from 'react';
import { Box, Button, Chip, Divider, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { AddCard as CreditIcon } from '@mui/icons-material';
import { CanAccess, useShow } from '@refinedev/core';
import { RefreshButton, Show, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { StaffTransaction, StaffUserDetail } from '../../../contract/staff.ts';
import type { ApiError } from '../../app/api.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { ErrorAlert, Fact, Facts, asGridProps } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { ListLink, LoadFailure, PageTitle, ShowLink } from '../lists.tsx';
import { TransactionsGrid } from '../transactions/TransactionsGrid.tsx';
import { CreditDialog } from './CreditDialog.tsx';

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 4 }}>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Box>
  );
}

/** One user: balance, subscription, servers, latest payments and their whole ledger; staff add or take back credits. */
export function UserShow() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const { query, result: user } = useShow<StaffUserDetail, ApiError>({ resource: 'users' });
  const [crediting, setCrediting] = useState(false);
  const ledger = useDataGrid<StaffTransaction, ApiError>({
    resource: 'staffTransactions',
    pagination: { pageSize: 10 },
    sorters: { initial: [{ field: 'createdAt', order: 'desc' }] },
    filters: { permanent: [{ field: 'userId', operator: 'eq', value: user?.id }] },
    queryOptions: { enabled: !!user },
    // One of the user's page's parts: its paging is not the page's address, which names the user.
    syncWithLocation: false,
  });
  return (
    <Show
      resource="users"
      isLoading={query.isLoading}
      breadcrumb={false}
      title={<PageTitle>{user?.name ?? t('users.titles.show')}</PageTitle>}
      headerButtons={({ refreshButtonProps }) => (
        <>
          {user && (
            <CanAccess resource="users" action="credit">
              <Button variant="contained" startIcon={<CreditIcon />} onClick={() => setCrediting(true)} data-testid="credit-button-staff">
                {t('users.credit.open')}
              </Button>
            </CanAccess>
          )}
          <RefreshButton {...refreshButtonProps} />
        </>
      )}
    >
      <ErrorAlert error={query.error} />
      {user && (
        <>
          <Facts>
            <Fact label={t('users.fields.balance')}>
              <Typography variant="h6" component="span" data-testid="user-balance">
                {t('users.credits', { count: user.balance })}
              </Typography>
            </Fact>
            <Fact label={t('users.fields.email')}>{user.email ?? '—'}</Fact>
            <Fact label={t('users.fields.mcName')}>{user.mcName ?? '—'}</Fact>
            <Fact label={t('users.fields.roles')}>
              <Stack direction="row" spacing={0.5}>
                {user.roles.length ? user.roles.map((role) => <Chip key={role} size="small" label={t(`users.roles.${role}`, role)} />) : t('users.roles.player')}
              </Stack>
            </Fact>
            <Fact label={t('users.fields.createdAt')}>{formatDate(user.createdAt, lang)}</Fact>
          </Facts>
          <Box sx={{ mb: 2 }}>
            <ListLink resource="audit" query={{ entity: 'user', entityId: user.id }}>
              {t('users.audit')}
            </ListLink>
          </Box>
          <Divider />

          <Section title={t('users.subscription.title')}>
            {user.subscription ? (
              <Typography data-testid="user-subscription">
                {t('users.subscription.line', {
                  plan: user.subscription.planName[lang],
                  status: t(`users.subscription.status.${user.subscription.status}`),
                  date: formatDate(user.subscription.currentPeriodEnd, lang),
                })}
                {user.subscription.cancelAtPeriodEnd && ` ${t('users.subscription.ending')}`}
              </Typography>
            ) : (
              <Typography color="text.secondary">{t('users.subscription.none')}</Typography>
            )}
          </Section>

          <Section
            title={t('users.games.title')}
            action={
              user.games.length > 0 && (
                <ListLink resource="staffGames" query={{ ownerId: user.id }}>
                  {t('users.games.all')}
                </ListLink>
              )
            }
          >
            {user.games.length === 0 ? (
              <Typography color="text.secondary">{t('users.games.none')}</Typography>
            ) : (
              <TableContainer>
                <Table size="small" aria-label={t('users.games.title')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('staffGames.fields.name')}</TableCell>
                      <TableCell>{t('staffGames.fields.status')}</TableCell>
                      <TableCell>{t('staffGames.fields.periodEnd')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {user.games.map((game) => (
                      <TableRow key={game.id}>
                        <TableCell sx={{ overflowWrap: 'anywhere' }}>
                          <ShowLink resource="staffGames" id={game.id}>
                            {game.name}
                          </ShowLink>
                        </TableCell>
                        <TableCell>{t(`staffGames.status.${game.status}`, game.status)}</TableCell>
                        <TableCell>{formatDate(game.periodEnd, lang)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </Section>

          <Section
            title={t('users.payments.title')}
            action={
              user.payments.length > 0 && (
                <ListLink resource="payments" query={{ userId: user.id }}>
                  {t('users.payments.all')}
                </ListLink>
              )
            }
          >
            {user.payments.length === 0 ? (
              <Typography color="text.secondary">{t('users.payments.none')}</Typography>
            ) : (
              <TableContainer>
                <Table size="small" aria-label={t('users.payments.title')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('payments.fields.createdAt')}</TableCell>
                      <TableCell>{t('payments.fields.status')}</TableCell>
                      <TableCell align="right">{t('payments.fields.amount')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {user.payments.map((payment) => (
                      <TableRow key={payment.id}>
                        <TableCell>
                          <ShowLink resource="payments" id={payment.id}>
                            {formatDate(payment.createdAt, lang)}
                          </ShowLink>
                        </TableCell>
                        <TableCell>{t(`payments.status.${payment.status}`, payment.status)}</TableCell>
                        <TableCell align="right">{formatMoney(payment.amountCents, payment.currency, lang)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </Section>

          <Section
            title={t('users.ledger.title')}
            action={
              <ListLink resource="staffTransactions" query={{ userId: user.id }}>
                {t('users.ledger.all')}
              </ListLink>
            }
          >
            <LoadFailure error={ledger.tableQuery.error} onRetry={() => void ledger.tableQuery.refetch()} />
            {!ledger.tableQuery.error && <TransactionsGrid gridProps={asGridProps<StaffTransaction>(ledger.dataGridProps)} showUser={false} testId="user-ledger" />}
          </Section>
          {crediting && <CreditDialog user={user} open onClose={() => setCrediting(false)} />}
        </>
      )}
    </Show>
  );
}
