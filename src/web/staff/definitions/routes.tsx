import { Route } from 'react-router';
import { DefinitionCreate } from './create.tsx';
import { DefinitionEdit } from './edit.tsx';
import { DefinitionList } from './list.tsx';
import { DefinitionShow } from './show.tsx';

/** The game definitions' pages, under /dashboard/staff/definitions. */
export const routes = (
  <Route path="definitions">
    <Route index element={<DefinitionList />} />
    <Route path="create" element={<DefinitionCreate />} />
    <Route path="edit/:id" element={<DefinitionEdit />} />
    <Route path="show/:id" element={<DefinitionShow />} />
  </Route>
);
