import { Route } from 'react-router';
import { PaymentList } from './list.tsx';
import { PaymentShow } from './show.tsx';

/** The card payments' pages, under /dashboard/staff/payments. */
export const routes = (
  <Route path="payments">
    <Route index element={<PaymentList />} />
    <Route path="show/:id" element={<PaymentShow />} />
  </Route>
);
