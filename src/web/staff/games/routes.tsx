import { Route } from 'react-router';
import { GameList } from './list.tsx';
import { GameShow } from './show.tsx';

/** Every player's servers, under /dashboard/staff/games. */
export const routes = (
  <Route path="games">
    <Route index element={<GameList />} />
    <Route path="show/:id" element={<GameShow />} />
  </Route>
);
