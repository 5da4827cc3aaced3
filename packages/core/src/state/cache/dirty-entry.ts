/**
 * What a named cache hands its flush listener (Kafka's ThreadCache.DirtyEntry): the key, the new
 * value (null is a delete) and the cache entry with the record context of the write. @internal
 */
import type { LRUCacheEntry } from './lru-cache-entry.js'

export interface DirtyEntry {
  readonly key: Buffer
  readonly newValue: Buffer | null
  readonly entry: LRUCacheEntry
}

/** Called with the dirty entries of a named cache, in the order they must be applied. */
export type DirtyEntryFlushListener = (entries: DirtyEntry[]) => void
