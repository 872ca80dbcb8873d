import { Route } from 'react-router';
import { TransactionList } from './list.tsx';

/** The whole ledger, under /dashboard/staff/transactions. */
export const routes = <Route path="transactions" element={<TransactionList />} />;
