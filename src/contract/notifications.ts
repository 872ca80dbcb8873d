import { Type, type Static } from 'typebox';
import { Id } from './common.ts';

export { HEARTBEAT_EVENT, NOTIFICATION_EVENT } from './events.ts';

/** What fills a message's placeholders (see messages.ts). */
export const MessageParams = Type.Object(
  {},
  { additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Object({ fr: Type.String(), en: Type.String() }, { description: 'Text in both languages: the reader’s is shown' })]) },
);

/**
 * The `data` of a `basic-link-event`: the notice's title, description and link (docs/product.md, Notifications), the text rendered in
 * the user's saved locale, and the message they come from (`key` in locales/{fr,en}/messages.json
 * under `notices`, and its `params`), for a client to render in the language it shows.
 */
export const NotificationData = Type.Object({
  title: Type.String({ maxLength: 200 }),
  description: Type.String({ maxLength: 1000 }),
  link: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
  key: Type.String(),
  params: MessageParams,
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
