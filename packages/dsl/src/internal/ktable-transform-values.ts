/**
 * The processor and view behind KTable.transformValues (Kafka Streams' KTableTransformValues).
 * Each update's new value goes through the transformer (deletes too: it sees null). Materialized
 * (a store name was given) the result is stored and forwarded through a TimestampedTupleForwarder,
 * the old value read from the store; otherwise it is forwarded at once, and the old value, when a
 * downstream operator asked for old values, is the transformer's result for the parent's old
 * value. The view reads the store when materialized, else transforms the parent view's value on
 * each lookup, under a record context without topic, partition or offset and with the stored
 * value's timestamp. Transformers get a context that cannot forward. @internal
 */
import { Headers, StreamsError, ValueAndTimestamp } from '@kstreams/core'
import type { ProcessingContext, Processor, ProcessorContext, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { Change } from '../change.js'
import type { ValueTransformerWithKey, ValueTransformerWithKeySupplier } from '../value-transformer-with-key.js'
import { forwardingDisabledContext } from './forwarding-disabled-context.js'
import { storeValueGetterSupplier } from './ktable-processor-supplier.js'
import type { KTableProcessorSupplier, KTableValueGetter, KTableValueGetterSupplier } from './ktable-processor-supplier.js'
import { TimestampedTupleForwarder } from './tuple-forwarder.js'

/** Kafka's RecordQueue.UNKNOWN: the timestamp of a lookup that found nothing. */
const UNKNOWN_TIMESTAMP = -1

export class KTableTransformValuesSupplier<K, V, VR> implements KTableProcessorSupplier<K, Change<V>, K, VR> {
  sendOldValues = false
  /** The queryable store the result is materialized in; undefined when it is not. */
  readonly storeName: string | undefined
  readonly #name: string
  readonly #parent: KTableProcessorSupplier<unknown, unknown, K, V>
  readonly #transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>

  constructor(options: {
    /** The operator's node name, for errors. */
    name: string
    parent: KTableProcessorSupplier<unknown, unknown, K, V>
    transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>
    storeName: string | undefined
  }) {
    this.#name = options.name
    this.#parent = options.parent
    this.#transformerSupplier = options.transformerSupplier
    this.storeName = options.storeName
  }

  /** The parent table's supplier (suppression looks upstream for a windowed aggregation, as Kafka's grace search walks the graph). */
  get parentSupplier(): KTableProcessorSupplier<unknown, unknown, K, V> {
    return this.#parent
  }

  /** A materialized result has its old values in its store; otherwise the parent must send them. */
  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (this.storeName !== undefined) {
      this.sendOldValues = true
      return true
    }
    if (this.#parent.enableSendingOldValues(forceMaterialization)) this.sendOldValues = true
    return this.sendOldValues
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.storeName !== undefined) return storeValueGetterSupplier<K, VR>(this.storeName)
    const parentView = this.#parent.view()
    return {
      storeNames: () => parentView.storeNames(),
      get: () => transformingGetter(parentView.get(), this.#newTransformer())
    }
  }

  get(): Processor<K, Change<V>, K, Change<VR>> {
    const transformer = this.#newTransformer()
    const { storeName, sendOldValues } = this
    let context: ProcessorContext<K, Change<VR>>
    let store: TimestampedKeyValueStore<K, VR> | undefined
    let forwarder: TimestampedTupleForwarder<K, VR> | undefined
    return {
      init(c) {
        context = c
        transformer.init?.(forwardingDisabledContext(c))
        if (storeName !== undefined) {
          store = c.getStateStore<TimestampedKeyValueStore<K, VR>>(storeName)
          forwarder = new TimestampedTupleForwarder(store, c, sendOldValues)
        }
      },
      process(record: Record<K, Change<V>>) {
        const key = record.key
        const newValue = transformer.transform(key, record.value.newValue)
        if (store !== undefined && forwarder !== undefined) {
          const oldValue = sendOldValues ? ValueAndTimestamp.getValueOrNull(store.get(key)) : null
          store.put(key, ValueAndTimestamp.make(newValue, record.timestamp))
          forwarder.maybeForward(record.withValue(new Change(newValue, oldValue)))
          return
        }
        const oldValue = sendOldValues ? transformer.transform(key, record.value.oldValue) : null
        context.forward(record.withValue(new Change(newValue, oldValue)))
      },
      close() {
        transformer.close?.()
      }
    }
  }

  #newTransformer(): ValueTransformerWithKey<K, V, VR> {
    const transformer: unknown = this.#transformerSupplier()
    if (
      transformer === null ||
      typeof transformer !== 'object' ||
      typeof (transformer as ValueTransformerWithKey<K, V, VR>).transform !== 'function'
    ) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The ValueTransformerWithKeySupplier of ${this.#name} returned ${String(transformer)}, not a transformer with a transform(key, value) method`
      )
    }
    return transformer as ValueTransformerWithKey<K, V, VR>
  }
}

/** The runtime's context (ProcessorContextImpl) as seen here: it can run code under another record context. */
interface RecordContextSwitch {
  readonly currentNode: unknown
  runAs<T>(node: unknown, recordContext: unknown, fn: () => T): T
}

function canSwitchRecordContext(context: unknown): context is RecordContextSwitch {
  return typeof (context as Partial<RecordContextSwitch>).runAs === 'function' && 'currentNode' in (context as object)
}

/** Kafka's KTableTransformValuesGetter: the parent's value of the key, transformed. */
function transformingGetter<K, V, VR>(
  parent: KTableValueGetter<K, V>,
  transformer: ValueTransformerWithKey<K, V, VR>
): KTableValueGetter<K, VR> {
  let context: ProcessingContext | undefined
  return {
    init(c) {
      context = c
      parent.init(c)
      transformer.init?.(forwardingDisabledContext(c))
    },
    get(key) {
      const vt = parent.get(key)
      const timestamp = vt === null ? UNKNOWN_TIMESTAMP : vt.timestamp
      const value = ValueAndTimestamp.getValueOrNull(vt)
      const transform = (): VR | null => transformer.transform(key, value)
      // The transformer runs for no record of its own: no topic, partition or offset; the value's timestamp.
      const result = canSwitchRecordContext(context)
        ? context.runAs(context.currentNode, { topic: undefined, partition: -1, offset: -1, timestamp, headers: new Headers() }, transform)
        : transform()
      return ValueAndTimestamp.make(result, timestamp)
    },
    close() {
      parent.close?.()
      transformer.close?.()
    }
  }
}
