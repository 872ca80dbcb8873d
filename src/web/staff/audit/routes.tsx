import { Route } from 'react-router';
import { AuditList } from './list.tsx';
import { AuditShow } from './show.tsx';

/** The audit log's pages, under /dashboard/staff/audit. */
export const routes = (
  <Route path="audit">
    <Route index element={<AuditList />} />
    <Route path="show/:id" element={<AuditShow />} />
  </Route>
);
