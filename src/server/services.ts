import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { ContentService } from './modules/content/service.ts';
import { CreditsService } from './modules/credits/service.ts';
import { NotificationsService } from './modules/notifications/service.ts';
import { UsersService } from './modules/users/service.ts';

/** The composition root of the domain: every service, built once per app from the database. */
export interface Services {
  config: Config;
  database: Database;
  db: Db;
  users: UsersService;
  credits: CreditsService;
  notifications: NotificationsService;
  content: ContentService;
}

export function createServices(config: Config, database: Database): Services {
  const db = database.db;
  return {
    config,
    database,
    db,
    users: new UsersService(db),
    credits: new CreditsService(db),
    notifications: new NotificationsService(database),
    content: new ContentService(config.contentDir),
  };
}
