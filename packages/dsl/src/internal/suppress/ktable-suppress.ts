/**
 * KTable.suppress (Kafka Streams' KTableImpl.suppress): names the processor (the Suppressed name,
 * else KTABLE-SUPPRESS-<n>) and its buffer store (`<name>-store`, else
 * KTABLE-SUPPRESS-STATE-STORE-<n>), finds the suppress duration (the time limit, or for final
 * results the window close delay of the windowed aggregation upstream, walking up through
 * table operators, the largest of the parents' at a multi-parent node) and adds the processor
 * with its in-memory buffer store (changelogged unless the BufferConfig disables logging).
 * @internal
 */
import { TopologyError } from '@kstreams/core'
import type { StateStore, StoreBuilder } from '@kstreams/core'
import { KTable } from '../../ktable.js'
import type { Suppressed } from '../../suppressed.js'
import type { KTableProcessorSupplier } from '../ktable-processor-supplier.js'
import { InMemoryTimeOrderedKeyValueChangeBuffer } from './in-memory-time-ordered-change-buffer.js'
import { KTableSuppressSupplier } from './ktable-suppress-processor.js'

const SUPPRESS_NAME = 'KTABLE-SUPPRESS-'

/**
 * What a windowed aggregation's supplier exposes for final results: how long after a window's
 * end it closes (the grace period; sessions: grace plus inactivity gap).
 */
export interface WindowCloseDelay {
  windowCloseDelayMs(): number
}

/**
 * Marks a windowed aggregation's supplier with its window close delay (time and sliding windows:
 * `windows.gracePeriodMs()`; sessions: grace plus inactivity gap), for untilWindowCloses.
 */
export function withWindowCloseDelay<T extends object>(supplier: T, delayMs: number): T & WindowCloseDelay {
  return Object.assign(supplier, { windowCloseDelayMs: () => delayMs })
}

/** What a stateless table operator's supplier exposes so the search can go on upstream. */
interface HasParentSupplier {
  readonly parentSupplier: KTableProcessorSupplier<unknown, unknown, unknown, unknown> | undefined
}

/**
 * What a node with several parents exposes (a cogroup merge): as Kafka's window grace search,
 * the delay is the largest of its parents'.
 */
interface HasParentSuppliers {
  readonly parentSuppliers: ReadonlyArray<KTableProcessorSupplier<unknown, unknown, unknown, unknown>>
}

export function suppressTable<K, V>(table: KTable<K, V>, suppressed: Suppressed<K>): KTable<K, V> {
  const builder = table.builder
  const name = suppressed.name ?? builder.newProcessorName(SUPPRESS_NAME)
  const finalResults = suppressed.kind === 'UNTIL_WINDOW_CLOSES'
  const suppressDurationMs = finalResults ? findWindowCloseDelay(table.supplier, table.name) : suppressed.timeLimitMs
  const storeName = suppressed.name !== undefined ? suppressed.name + '-store' : builder.newStoreName(SUPPRESS_NAME)
  const config = suppressed.bufferConfig
  const supplier = new KTableSuppressSupplier<K, V>(
    { name, storeName, suppressDurationMs, bufferConfig: config, finalResults },
    table.supplier
  )
  const storeBuilder: StoreBuilder<InMemoryTimeOrderedKeyValueChangeBuffer<K, V>> = {
    name: storeName,
    loggingEnabled: config.loggingEnabled,
    logConfig: config.logConfig,
    build: () => new InMemoryTimeOrderedKeyValueChangeBuffer<K, V>(storeName, table.keySerde, table.valueSerde, config.loggingEnabled)
  }
  builder.topology.addProcessor(name, () => supplier.get(), table.name)
  builder.topology.addStateStore(storeBuilder as StoreBuilder<StateStore>, name)
  return new KTable<K, V>(
    builder,
    name,
    table.keySerde,
    table.valueSerde,
    supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, V>,
    undefined
  )
}

function findWindowCloseDelay(supplier: unknown, chain: string): number {
  if (hasWindowCloseDelay(supplier)) return supplier.windowCloseDelayMs()
  if (hasParent(supplier) && supplier.parentSupplier !== undefined) return findWindowCloseDelay(supplier.parentSupplier, chain)
  if (hasParents(supplier) && supplier.parentSuppliers.length > 0) {
    return Math.max(...supplier.parentSuppliers.map(parent => findWindowCloseDelay(parent, chain)))
  }
  throw new TopologyError('TOPOLOGY_INVALID', `Window close time is only defined for windowed computations. Got [${chain}].`)
}

function hasWindowCloseDelay(supplier: unknown): supplier is WindowCloseDelay {
  return typeof (supplier as Partial<WindowCloseDelay> | null)?.windowCloseDelayMs === 'function'
}

function hasParents(supplier: unknown): supplier is HasParentSuppliers {
  return supplier !== null && typeof supplier === 'object' && Array.isArray((supplier as Partial<HasParentSuppliers>).parentSuppliers)
}

function hasParent(supplier: unknown): supplier is HasParentSupplier {
  return supplier !== null && typeof supplier === 'object' && 'parentSupplier' in supplier
}
