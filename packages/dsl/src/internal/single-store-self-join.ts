/**
 * The single.store.self.join optimization (KIP-862, Kafka Streams' rewriteSingleStoreSelfJoin
 * and KStreamKStreamSelfJoin): a stream-stream join whose two sides are the same node of Kafka's
 * graph (a stream joined with itself, or two streams of the same topic, which Kafka merges into
 * one source) keeps one windowed processor and one window store. The other side's windowed
 * processor, both join processors and their stores go; the merge node keeps its name and becomes
 * the self-join processor, which emits what the inner join would, in the same order. As in Kafka,
 * the rewrite does not look at the join's kind. @internal
 */
import type { Processor, ProcessorContext, ProcessorSupplier, Record, Topology, WindowStore } from '@kstreams/core'
import { REWRITE, recordDroppedRecord } from '@kstreams/core/internal'
import type { GraphView, OptimizationGraph } from './optimization-graph.js'

export function rewriteSingleStoreSelfJoins(topology: Topology, graph: OptimizationGraph, view: GraphView): void {
  for (const join of graph.streamJoins) {
    if (view.parentsOf(join.merge).length !== 1) continue
    const stores = [join.otherStore, ...(join.outerStore === undefined ? [] : [join.outerStore])]
    topology[REWRITE]([
      { op: 'replaceProcessor', name: join.merge, supplier: join.selfJoin, parents: [join.thisWindowed] },
      { op: 'removeNode', name: join.joinThis },
      { op: 'removeNode', name: join.joinOther },
      { op: 'removeNode', name: join.otherWindowed },
      ...stores.map(store => ({ op: 'removeStore' as const, storeName: store.name })),
      { op: 'connectStore', storeName: join.thisStore.name, processorName: join.merge }
    ])
  }
}

export interface SelfJoinOptions<K, V, VOut> {
  readonly storeName: string
  readonly beforeMs: number
  readonly afterMs: number
  /** The window size plus the grace period. */
  readonly retentionMs: number
  readonly joiner: (key: K, left: V, right: V) => VOut
}

/** Kafka's KStreamKStreamSelfJoin: the record joined with the earlier ones of its window, and with itself. */
export function selfJoinProcessor<K, V, VOut>(options: SelfJoinOptions<K, V, VOut>): ProcessorSupplier<K, V, K, VOut> {
  return () => new SelfJoinProcessor(options)
}

class SelfJoinProcessor<K, V, VOut> implements Processor<K, V, K, VOut> {
  readonly #o: SelfJoinOptions<K, V, VOut>
  #context!: ProcessorContext<K, VOut>
  #store!: WindowStore<K, V>
  #streamTime = -1

  constructor(options: SelfJoinOptions<K, V, VOut>) {
    this.#o = options
  }

  init(context: ProcessorContext<K, VOut>): void {
    this.#context = context
    this.#store = context.getStateStore<WindowStore<K, V>>(this.#o.storeName)
  }

  process(record: Record<K, V>): void {
    const { key, value, timestamp } = record
    if (key === null || key === undefined || value === null || value === undefined) {
      recordDroppedRecord(this.#context)
      return
    }
    const { beforeMs, afterMs, joiner } = this.#o
    this.#streamTime = Math.max(this.#streamTime, timestamp)
    const selfRecord = record.withValue(joiner(key, value, value))
    // the record joins itself only while its window is open
    const emitSelf = timestamp > this.#streamTime - this.#o.retentionMs + 1
    let emittedSelf = false
    // as the left side: the stored records within [ts - before, ts + after]
    this.#fetch(key, timestamp - beforeMs, timestamp + afterMs, (otherTs, other) => {
      this.#context.forward(record.withValue(joiner(key, value, other)).withTimestamp(Math.max(timestamp, otherTs)))
    })
    // as the right side, in timestamp order with the self-join record
    this.#fetch(key, timestamp - afterMs, timestamp + beforeMs, (otherTs, other) => {
      if (timestamp < Math.max(timestamp, otherTs) && !emittedSelf && emitSelf) {
        emittedSelf = true
        this.#context.forward(selfRecord)
      }
      this.#context.forward(record.withValue(joiner(key, other, value)).withTimestamp(Math.max(timestamp, otherTs)))
    })
    if (!emittedSelf && emitSelf) this.#context.forward(selfRecord)
  }

  #fetch(key: K, from: number, to: number, each: (timestamp: number, value: V) => void): void {
    const iterator = this.#store.fetch(key, Math.max(0, from), Math.max(0, to))
    try {
      for (const entry of iterator) each(entry.key, entry.value)
    } finally {
      iterator.close()
    }
  }
}
