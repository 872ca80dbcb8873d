import { Route } from 'react-router';
import { PlanCreate } from './create.tsx';
import { PlanEdit } from './edit.tsx';
import { PlanList } from './list.tsx';

/** The subscription plans' pages, under /dashboard/staff/plans. */
export const routes = (
  <Route path="plans">
    <Route index element={<PlanList />} />
    <Route path="create" element={<PlanCreate />} />
    <Route path="edit/:id" element={<PlanEdit />} />
  </Route>
);
