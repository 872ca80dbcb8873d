import { Route } from 'react-router';
import { PromoCreate } from './create.tsx';
import { PromoEdit } from './edit.tsx';
import { PromoList } from './list.tsx';
import { PromoShow } from './show.tsx';

/** The promo codes' pages, under /dashboard/staff/promocodes (a code is named by itself). */
export const routes = (
  <Route path="promocodes">
    <Route index element={<PromoList />} />
    <Route path="create" element={<PromoCreate />} />
    <Route path="edit/:id" element={<PromoEdit />} />
    <Route path="show/:id" element={<PromoShow />} />
  </Route>
);
