import { Route } from 'react-router';
import { UserList } from './list.tsx';
import { UserShow } from './show.tsx';

/** The users' pages, under /dashboard/staff/users. */
export const routes = (
  <Route path="users">
    <Route index element={<UserList />} />
    <Route path="show/:id" element={<UserShow />} />
  </Route>
);
