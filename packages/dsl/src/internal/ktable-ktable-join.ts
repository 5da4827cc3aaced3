/**
 * One side of a primary-key KTable-KTable join (Kafka Streams' KTableKTableInnerJoin,
 * KTableKTableLeftJoin, KTableKTableRightJoin and KTableKTableOuterJoin): a processor receiving
 * the updates of one table, looking the key up in the other table's view and forwarding the
 * joined `Change(new, old)` with the larger of both timestamps, and the view computing the join
 * result of a key from both tables' views. The "other" side of a join is built with the joiner's
 * arguments swapped, so `joiner(thisValue, otherValue)` is always called in the user's order.
 * @internal
 */
import { ValueAndTimestamp } from '@kstreams/core'
import type { Processor, ProcessorContext, Record } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import { Change } from '../change.js'
import type { KTableProcessorSupplier, KTableValueGetter, KTableValueGetterSupplier } from './ktable-processor-supplier.js'

/**
 * How this side treats a missing value: 'inner' (both must exist), 'left' (this side must exist),
 * 'right' (the other side must exist: the other half of a left join), 'outer' (either).
 */
export type TableJoinSideKind = 'inner' | 'left' | 'right' | 'outer'

/** The joiner of one side, in this side's argument order; nulls reach it only where the kind allows. */
export type SideJoiner<V1, V2, VR> = (thisValue: V1 | null, otherValue: V2 | null) => VR

/** Kafka's UNKNOWN timestamp of a missing side. */
const UNKNOWN = -1

export class KTableKTableJoinSupplier<K, V1, V2, VR> implements KTableProcessorSupplier<K, Change<V1>, K, VR> {
  sendOldValues = false
  readonly storeName: string | undefined = undefined
  readonly #kind: TableJoinSideKind
  readonly #thisTable: KTableProcessorSupplier<unknown, unknown, K, V1>
  readonly #otherTable: KTableProcessorSupplier<unknown, unknown, K, V2>
  readonly #thisView: KTableValueGetterSupplier<K, V1>
  readonly #otherView: KTableValueGetterSupplier<K, V2>
  readonly #joiner: SideJoiner<V1, V2, VR>

  /** Takes both tables' views at once, which materializes unmaterialized source tables (as Kafka does). */
  constructor(options: {
    kind: TableJoinSideKind
    thisTable: KTableProcessorSupplier<unknown, unknown, K, V1>
    otherTable: KTableProcessorSupplier<unknown, unknown, K, V2>
    joiner: SideJoiner<V1, V2, VR>
  }) {
    this.#kind = options.kind
    this.#thisTable = options.thisTable
    this.#otherTable = options.otherTable
    this.#joiner = options.joiner
    this.#thisView = options.thisTable.view()
    this.#otherView = options.otherTable.view()
  }

  /** The stores of the other table's view, which this side's processor reads. */
  otherStoreNames(): string[] {
    return this.#otherView.storeNames()
  }

  /** A join needs both parents to send old values, materializing them if needed. */
  enableSendingOldValues(_forceMaterialization: boolean): boolean {
    this.#thisTable.enableSendingOldValues(true)
    this.#otherTable.enableSendingOldValues(true)
    this.sendOldValues = true
    return true
  }

  view(): KTableValueGetterSupplier<K, VR> {
    const thisView = this.#thisView
    const otherView = this.#otherView
    const kind = this.#kind
    const joiner = this.#joiner
    return {
      storeNames: () => [...new Set([...thisView.storeNames(), ...otherView.storeNames()])],
      get: () => joinGetter(kind, thisView.get(), otherView.get(), joiner)
    }
  }

  get(): Processor<K, Change<V1>, K, Change<VR>> {
    const kind = this.#kind
    const joiner = this.#joiner
    const sendOldValues = this.sendOldValues
    const other = this.#otherView.get()
    let context: ProcessorContext<K, Change<VR>>
    return {
      init(c) {
        context = c
        other.init(c)
      },
      process(record: Record<K, Change<V1>>) {
        if (record.key === null || record.key === undefined) {
          recordDroppedRecord(context)
          return
        }
        const change = record.value
        const otherVt = other.get(record.key)
        const otherValue = ValueAndTimestamp.getValueOrNull(otherVt)
        const result = joinChange(kind, change, otherValue, sendOldValues, joiner)
        if (result === undefined) return
        const timestamp = Math.max(record.timestamp, otherVt === null || otherValue === null ? UNKNOWN : otherVt.timestamp)
        context.forward(record.withValue(result).withTimestamp(timestamp))
      },
      close() {
        other.close?.()
      }
    }
  }
}

/** The joined Change of one update given the other table's value, or undefined when nothing is forwarded. */
function joinChange<V1, V2, VR>(
  kind: TableJoinSideKind,
  change: Change<V1>,
  otherValue: V2 | null,
  sendOldValues: boolean,
  joiner: SideJoiner<V1, V2, VR>
): Change<VR> | undefined {
  const { newValue, oldValue } = change
  switch (kind) {
    case 'inner':
      if (otherValue === null) return undefined
      return new Change(
        newValue === null ? null : joiner(newValue, otherValue),
        sendOldValues && oldValue !== null ? joiner(oldValue, otherValue) : null
      )
    case 'left':
      if (otherValue === null && newValue === null && oldValue === null) return undefined
      return new Change(
        newValue === null ? null : joiner(newValue, otherValue),
        sendOldValues && oldValue !== null ? joiner(oldValue, otherValue) : null
      )
    case 'right':
      // The other table is the left side of the user's join: it must have a value.
      if (otherValue === null) return undefined
      return new Change(joiner(newValue, otherValue), sendOldValues ? joiner(oldValue, otherValue) : null)
    case 'outer':
      if (otherValue === null && newValue === null && oldValue === null) return undefined
      return new Change(
        otherValue !== null || newValue !== null ? joiner(newValue, otherValue) : null,
        sendOldValues && (otherValue !== null || oldValue !== null) ? joiner(oldValue, otherValue) : null
      )
  }
}

/** The join result of a key computed from both views, with the larger of the present timestamps. */
function joinGetter<K, V1, V2, VR>(
  kind: TableJoinSideKind,
  thisGetter: KTableValueGetter<K, V1>,
  otherGetter: KTableValueGetter<K, V2>,
  joiner: SideJoiner<V1, V2, VR>
): KTableValueGetter<K, VR> {
  return {
    init(context) {
      thisGetter.init(context)
      otherGetter.init(context)
    },
    get(key) {
      const thisVt = thisGetter.get(key)
      const thisValue = ValueAndTimestamp.getValueOrNull(thisVt)
      const thisMissing = thisValue === null
      if (thisMissing && kind !== 'outer' && kind !== 'right') return null
      const otherVt = otherGetter.get(key)
      const otherValue = ValueAndTimestamp.getValueOrNull(otherVt)
      if (otherValue === null && (kind === 'inner' || kind === 'right')) return null
      if (thisMissing && otherValue === null) return null
      const timestamp = Math.max(thisVt?.timestamp ?? UNKNOWN, otherVt?.timestamp ?? UNKNOWN)
      return ValueAndTimestamp.make(joiner(thisValue, otherValue), timestamp)
    },
    close() {
      thisGetter.close?.()
      otherGetter.close?.()
    }
  }
}
