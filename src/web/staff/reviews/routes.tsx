import { Route } from 'react-router';
import { ReviewList } from './list.tsx';

/** Review moderation, under /dashboard/staff/reviews. */
export const routes = <Route path="reviews" element={<ReviewList />} />;
