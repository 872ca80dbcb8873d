import { Route } from 'react-router';
import { InvoiceList } from './list.tsx';
import { InvoiceShow } from './show.tsx';

/** The invoices' pages, under /dashboard/staff/invoices. */
export const routes = (
  <Route path="invoices">
    <Route index element={<InvoiceList />} />
    <Route path="show/:id" element={<InvoiceShow />} />
  </Route>
);
