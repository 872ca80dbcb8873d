import { Type, type Static } from 'typebox';
import { Id } from './common.ts';

export { HEARTBEAT_EVENT, NOTIFICATION_EVENT } from './events.ts';

/** The `data` of a `basic-link-event`. */
export const NotificationData = Type.Object({
  title: Type.String({ maxLength: 200 }),
  description: Type.String({ maxLength: 1000 }),
  link: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
});
export type NotificationData = Static<typeof NotificationData>;

export const Notification = Type.Object({
  id: Id,
  event: Type.String(),
  data: NotificationData,
  read: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Notification = Static<typeof Notification>;

export const NotificationParams = Type.Object({ uuid: Id }, { additionalProperties: false });
