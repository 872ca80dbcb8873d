/**
 * prismarine-world (flying-squid's world) saves changed chunks every second from a queue, but
 * empties the whole queue once the writes end: a chunk changed while it was being written is
 * dropped from the queue, and its change never reaches the disk. On a first join the freshly
 * generated chunks take a while to write, so a block placed then was lost at the next restart.
 *
 * This replaces its `saveNow` with one that keeps a chunk queued when it changed during its
 * write, runs one save at a time, and unloads a chunk only once nothing of it is left to write.
 */
interface Column {
  chunkX: number;
  chunkZ: number;
}
export interface SavingWorld {
  savingQueue: Map<string, Column>;
  unloadQueue: Map<string, Column>;
  columns: Record<string, unknown>;
  finishedSaving: Promise<unknown>;
  storageProvider: { save(chunkX: number, chunkZ: number, column: unknown): Promise<void> } | null;
  queueSaving(chunkX: number, chunkZ: number): void;
  saveNow(): Promise<void>;
  forceUnloadColumn(key: string, chunkX: number, chunkZ: number): void;
  emit(event: string): boolean;
}

export function keepChangesWhileSaving(world: SavingWorld): void {
  const writing = new Set<string>();
  const changedDuringWrite = new Set<string>();
  const queue = world.queueSaving.bind(world);
  world.queueSaving = (chunkX, chunkZ) => {
    const key = `${chunkX},${chunkZ}`;
    if (writing.has(key)) changedDuringWrite.add(key);
    queue(chunkX, chunkZ);
  };

  const save = async () => {
    const provider = world.storageProvider;
    if (!provider || world.savingQueue.size === 0) return;
    const batch = [...world.savingQueue.entries()];
    for (const [key] of batch) writing.add(key);
    // Each write serializes its chunk before its first await, so later changes are not in it.
    const writes = batch.map(([key, { chunkX, chunkZ }]) => provider.save(chunkX, chunkZ, world.columns[key]));
    world.finishedSaving = Promise.all(writes);
    try {
      await world.finishedSaving;
    } finally {
      for (const [key] of batch) {
        if (!changedDuringWrite.has(key)) world.savingQueue.delete(key);
      }
      writing.clear();
      changedDuringWrite.clear();
    }
    for (const [key, { chunkX, chunkZ }] of world.unloadQueue) {
      if (!world.savingQueue.has(key)) world.forceUnloadColumn(key, chunkX, chunkZ);
    }
    world.emit('doneSaving');
  };

  let running: Promise<void> = Promise.resolve();
  world.saveNow = () => {
    running = running.then(save, save);
    return running;
  };
}
