import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { useLocalePath } from '../app/locale.tsx';
import { NotFound } from '../shell/NotFound.tsx';
import { StaffLayout } from './StaffLayout.tsx';
import { OldListAddress } from './lists.tsx';
import { routes as definitions } from './definitions/routes.tsx';
import { routes as packs } from './credit-packs/routes.tsx';
import { routes as promoCodes } from './promocodes/routes.tsx';
import { routes as plans } from './plans/routes.tsx';
import { routes as users } from './users/routes.tsx';
import { routes as games } from './games/routes.tsx';
import { routes as transactions } from './transactions/routes.tsx';
import { routes as payments } from './payments/routes.tsx';
import { routes as invoices } from './invoices/routes.tsx';
import { routes as reviews } from './reviews/routes.tsx';
import { routes as audit } from './audit/routes.tsx';
import { routes as tournaments } from './tournaments/routes.tsx';

/**
 * /dashboard/staff/* for staff and support (the dashboard's gate sent anyone else a 403): a folder
 * per resource, each with its list / show / edit / create pages, in the back office's layout. Its
 * strings (the `staff` namespace) load with it.
 */
export default function StaffRoutes() {
  useTranslation('staff');
  const to = useLocalePath();
  return (
    <Routes>
      <Route element={<StaffLayout />}>
        <Route index element={<Navigate to={to('/dashboard/staff/definitions')} replace />} />
        <Route element={<OldListAddress />}>
          {definitions}
          {packs}
          {promoCodes}
          {plans}
          {users}
          {games}
          {tournaments}
          {transactions}
          {payments}
          {invoices}
          {reviews}
          {audit}
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
