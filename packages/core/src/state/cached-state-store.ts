/**
 * A store layer that caches writes and forwards them on flush (Kafka's CachedStateStore), and
 * the listener the DSL gives it (Kafka's CacheFlushListener): on every flush of a dirty entry
 * the listener receives the key, the new value (null for a delete), the old value read from the
 * store below before the write (only when sendOldValues was asked for, else null), the
 * timestamp of the write and its whole record context (headers, origin), so that the DSL can
 * forward `Change(new, old)` as the record that wrote it.
 */
import type { ProcessorRecordContext } from '../runtime/record-context.js'

export type CacheFlushListener<K, V> = (
  key: K,
  newValue: V | null,
  oldValue: V | null,
  timestamp: number,
  recordContext: ProcessorRecordContext
) => void

export interface CachedStateStore<K, V> {
  /**
   * Sets the listener called for each flushed entry. Returns false when the store cannot cache
   * (no record cache in its context): the caller must then forward changes itself.
   */
  setFlushListener(listener: CacheFlushListener<K, V>, sendOldValues: boolean): boolean
}

export function isCachedStateStore<K, V>(store: unknown): store is CachedStateStore<K, V> {
  return typeof (store as Partial<CachedStateStore<K, V>> | null)?.setFlushListener === 'function'
}
