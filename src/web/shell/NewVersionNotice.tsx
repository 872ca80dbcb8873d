import { lazy, Suspense } from 'react';
import { useAppConfig } from '../app/config.ts';
import { useBuildWatch } from '../app/useBuildWatch.ts';

const NewVersionSnackbar = lazy(() => import('./NewVersionSnackbar.tsx'));

/** Offers a reload when /builds/latest.json announces a newer version than the one running. */
export function NewVersionNotice() {
  const { version } = useAppConfig();
  const outdated = useBuildWatch(version);
  if (!outdated) return null;
  return (
    <Suspense>
      <NewVersionSnackbar />
    </Suspense>
  );
}
