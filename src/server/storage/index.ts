import { LocalStore } from './local.ts';
import { S3Store, type S3StoreOptions } from './s3.ts';
import type { ObjectStore } from './store.ts';

export type { ObjectLocation, ObjectStore } from './store.ts';
export { ObjectNotFoundError } from './store.ts';

/** What config.ts reads from BACKUP_STORE and S3_*. */
export type StoreConfig = { kind: 'local'; root: string } | ({ kind: 's3' } & S3StoreOptions);

/** The one place the store is chosen, so the rest of the product only sees an ObjectStore. */
export function createStore(config: StoreConfig): ObjectStore {
  return config.kind === 'local' ? new LocalStore(config.root) : new S3Store(config);
}
