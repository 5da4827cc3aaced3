/**
 * One measurement of an instance process, taken inside it: resident set size, V8 heap, memory
 * outside the heap, open handles and open RocksDB iterators, and the tasks it runs then (memory
 * follows the tasks: an instance holds more while it stands in for a restarting one). With `--expose-gc` the heap is
 * measured right after a full collection, so it is the live heap and not garbage not yet
 * collected; RSS and the rest are read after that collection too.
 */
import { RocksDBStore } from '@kstreams/rocksdb'

export interface MemorySample {
  /** Resident set size, bytes. */
  readonly rss: number
  /** V8 heap in use, bytes (after a full GC when gc is exposed). */
  readonly heapUsed: number
  readonly heapTotal: number
  /** Memory of C++ objects bound to JS objects (Buffers included), bytes. */
  readonly external: number
  readonly arrayBuffers: number
  /** process.getActiveResourcesInfo().length: sockets, timers, file requests... keeping the loop alive. */
  readonly handles: number
  /** RocksDBStore.openIterators: RocksDB iterators neither closed nor read to their end. */
  readonly iterators: number
  readonly activeTasks: number
  /** Standby tasks, warm-up replicas included. */
  readonly standbyTasks: number
}

/** Measures this process; `gc` (globalThis.gc under --expose-gc) runs first when given. */
export function takeSample(gc: (() => void) | undefined, tasks: { readonly active: number; readonly standby: number }): MemorySample {
  gc?.()
  const memory = process.memoryUsage()
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    heapTotal: memory.heapTotal,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    handles: process.getActiveResourcesInfo().length,
    iterators: RocksDBStore.openIterators,
    activeTasks: tasks.active,
    standbyTasks: tasks.standby
  }
}
