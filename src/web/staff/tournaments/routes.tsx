import { Route } from 'react-router';
import { TournamentCreate } from './create.tsx';
import { TournamentEdit } from './edit.tsx';
import { TournamentList } from './list.tsx';
import { TournamentShow } from './show.tsx';

/** The tournaments' pages, under /dashboard/staff/tournaments. */
export const routes = (
  <Route path="tournaments">
    <Route index element={<TournamentList />} />
    <Route path="create" element={<TournamentCreate />} />
    <Route path="edit/:id" element={<TournamentEdit />} />
    <Route path="show/:id" element={<TournamentShow />} />
  </Route>
);
