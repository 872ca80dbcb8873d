/** Event names of the notification stream, apart from the schemas so the web app imports no validator. */
export const NOTIFICATION_EVENT = 'basic-link-event';
export const HEARTBEAT_EVENT = 'heartbeat';
/**
 * Something of the user's changed (a game's status, a friend request...): not a stored
 * notification, no id, never replayed. Clients that only know notices ignore it; ours refresh what it names.
 */
export const RESOURCE_CHANGE_EVENT = 'resource-change';
