import { Route } from 'react-router';
import { CreditPackCreate } from './create.tsx';
import { CreditPackEdit } from './edit.tsx';
import { CreditPackList } from './list.tsx';

/** The credit packs' pages, under /dashboard/staff/packs (the address they always had, for bookmarks). */
export const routes = (
  <Route path="packs">
    <Route index element={<CreditPackList />} />
    <Route path="create" element={<CreditPackCreate />} />
    <Route path="edit/:id" element={<CreditPackEdit />} />
  </Route>
);
