import { Route } from 'react-router';
import { PackCreate } from './create.tsx';
import { PackEdit } from './edit.tsx';
import { PackList } from './list.tsx';

/** The credit packs' pages, under /dashboard/staff/packs. */
export const routes = (
  <Route path="packs">
    <Route index element={<PackList />} />
    <Route path="create" element={<PackCreate />} />
    <Route path="edit/:id" element={<PackEdit />} />
  </Route>
);
