import { useTranslation } from 'react-i18next';
import { useBarePath } from '../app/locale.tsx';
import { ErrorPage } from './ErrorPage.tsx';

/** 'Page not found: {path}' (docs/product.md, Routes); the server already answered 404. */
export function NotFound() {
  const { t } = useTranslation();
  const path = useBarePath();
  return <ErrorPage status={404} message={t('errors.notFound', { path })} />;
}
