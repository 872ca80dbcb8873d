/** Event names of the notification stream, apart from the schemas so the web app imports no validator. */
export const NOTIFICATION_EVENT = 'basic-link-event';
export const HEARTBEAT_EVENT = 'heartbeat';
