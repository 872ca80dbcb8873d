import { useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useOne } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { Game } from '../../../contract/games.ts';
import { ApiError, newIdempotencyKey } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { useLocalized } from '../../ui/format.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { PackagePicker } from './create/PackagePicker.tsx';
import { SummaryCard } from './create/SummaryCard.tsx';
import { usePromoCode } from './create/usePromoCode.ts';
import { defaultValues, toRequest, type CreateValues } from './create/values.ts';
import { WorldFields } from './create/WorldFields.tsx';

/** /dashboard/creategame/:id: buying a server — a package, a name and the world's settings; the price and the balance after. */
export function GameCreate() {
  const { id = '' } = useParams();
  const { t } = useTranslation('games');
  const errorMessage = useErrorMessage();
  const { query } = useOne<GameDefinition, ApiError>({ resource: 'definitions', id });
  // The shared user: its balance, shown in the header too, is read again after the purchase.
  const me = useCurrentUser();

  if (query.isPending || me.status === 'loading') return <PageLoader />;
  if (query.isError) return <LoadError message={query.error.status === 404 ? t('product.notFound') : `${t('product.loadError')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />;
  if (me.status === 'error') return <LoadError message={`${t('create.userError')} ${errorMessage(me.error)}`} onRetry={me.reload} />;
  if (query.data.data.packages.length === 0) return <Alert severity="info">{t('product.noPackages')}</Alert>;
  return <CreateForm definition={query.data.data} balance={me.data.balance} onBought={me.reload} />;
}

function CreateForm({ definition, balance, onBought }: { definition: GameDefinition; balance: number; onBought: () => void }) {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const text = useLocalized();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const promo = usePromoCode();
  const [attempt, setAttempt] = useState<{ body: string; key: string } | null>(null);
  const {
    control,
    handleSubmit,
    watch,
    refineCore: { onFinish, formLoading, mutation },
  } = useForm<Game, ApiError, CreateValues>({
    defaultValues: defaultValues(definition),
    refineCoreProps: {
      resource: 'games',
      action: 'create',
      meta: { idempotencyKey: attempt?.key },
      redirect: false,
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: ({ data }) => {
        navigate(to(`/dashboard/game/${data.id}`));
        onBought();
      },
      onMutationError: (err) => {
        if (err instanceof ApiError) setAttempt(null);
      },
    },
  });
  // The purchase's Idempotency-Key: kept while the same purchase is retried after a lost answer (so
  // it is bought once), renewed when the purchase changes or the API gave a definite answer.
  const body = JSON.stringify(toRequest(definition.id, watch(), promo.promo?.code ?? null));
  if (attempt?.body !== body) setAttempt({ body, key: newIdempotencyKey() });

  const chosen = definition.packages.find((p) => p.id === watch('packageId'));
  const listPrice = chosen?.priceCredits ?? 0;
  // Rounded as the API rounds a percentage off the first period.
  const price = promo.promo ? Math.round((listPrice * (100 - Math.min(promo.promo.value, 100))) / 100) : listPrice;
  // /credits brings the player back here once the credits arrived.
  const buyCredits = `${to('/credits')}?back=${encodeURIComponent(to(`/dashboard/creategame/${definition.id}`))}`;
  const failure = mutation.error;
  // A refusal that names fields shows on them; any other shows in the summary.
  const refusal = failure && !failure.errors ? { text: errorMessage(failure), short: failure instanceof ApiError && failure.status === 402 } : null;
  const submit = handleSubmit((values) => onFinish(toRequest(definition.id, values, promo.promo?.code ?? null)).catch(() => {}));

  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
      <Button component={RouterLink} to={to(`/dashboard/products/${definition.id}`)} sx={{ mb: 2, ml: -1 }}>
        ← {text(definition.name)}
      </Button>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.2rem' }, mb: 3 }}>
        {t('create.title', { name: text(definition.name) })}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' }, alignItems: 'start' }}>
        <Stack spacing={3}>
          <PackagePicker control={control} packages={definition.packages} />
          <WorldFields control={control} />
        </Stack>
        <SummaryCard control={control} promo={promo} balance={balance} listPrice={listPrice} price={price} buyCredits={buyCredits} refusal={refusal} sending={formLoading} canSubmit={!!chosen} />
      </Box>
    </Box>
  );
}
