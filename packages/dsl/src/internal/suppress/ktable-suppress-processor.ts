/**
 * The processor and supplier behind KTable.suppress (Kafka Streams' KTableSuppressProcessorSupplier
 * and KTableSuppressProcessor). Each update is buffered under its buffer time (the record's
 * timestamp for untilTimeLimit, the window end for final results); then every entry whose time
 * is at most observed stream time minus the suppress duration is emitted, oldest first, and an
 * over-full buffer is emptied early (EMIT) or fails with a BufferFullError (SHUT_DOWN). Stream
 * time is this processor's maximum record timestamp. An emitted record carries the buffered
 * record's timestamp, headers and record context; final results drop deletes. The parent table
 * always sends old values (the view answers with the value from before the buffered updates).
 * @internal
 */
import { Record } from '@kstreams/core'
import type { Processor, ProcessorContext, Windowed } from '@kstreams/core'
import type { Change } from '../../change.js'
import type { BufferConfig } from '../../buffer-config.js'
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from '../ktable-processor-supplier.js'
import { BufferFullError } from '../../buffer-full-error.js'
import type { Eviction, InMemoryTimeOrderedKeyValueChangeBuffer } from './in-memory-time-ordered-change-buffer.js'
import { withRecordContext } from '../with-record-context.js'

export interface SuppressOptions {
  /** The processor's name, for the buffer-full message. */
  readonly name: string
  readonly storeName: string
  /** How long an entry waits after its buffer time (the time limit, or the grace period of final results). */
  readonly suppressDurationMs: number
  readonly bufferConfig: BufferConfig
  /** Final results: the buffer time is the window end and deletes are dropped. */
  readonly finalResults: boolean
}

export class KTableSuppressSupplier<K, V> implements KTableProcessorSupplier<K, Change<V>, K, V> {
  sendOldValues = true
  readonly storeName = undefined
  readonly #options: SuppressOptions
  readonly #parent: KTableProcessorSupplier<unknown, unknown, K, V>

  constructor(options: SuppressOptions, parent: KTableProcessorSupplier<unknown, unknown, K, V>) {
    this.#options = options
    this.#parent = parent
    // The buffer needs the old values for the prior-value view.
    parent.enableSendingOldValues(true)
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    return this.#parent.enableSendingOldValues(forceMaterialization)
  }

  /** The parent's view, except for buffered keys: their value from before they were buffered. */
  view(): KTableValueGetterSupplier<K, V> {
    const parentView = this.#parent.view()
    const storeName = this.#options.storeName
    return {
      storeNames: () => [storeName, ...parentView.storeNames()],
      get: () => {
        const parentGetter = parentView.get()
        let buffer: InMemoryTimeOrderedKeyValueChangeBuffer<K, V>
        return {
          init(context) {
            parentGetter.init(context)
            buffer = context.getStateStore<InMemoryTimeOrderedKeyValueChangeBuffer<K, V>>(storeName)
          },
          get(key) {
            const prior = buffer.priorValueForBuffered(key)
            return prior.defined ? prior.value : parentGetter.get(key)
          },
          close() {
            parentGetter.close?.()
          }
        }
      }
    }
  }

  get(): Processor<K, Change<V>, K, Change<V>> {
    const { name, storeName, suppressDurationMs, bufferConfig, finalResults } = this.#options
    const { maxRecords, maxBytes, bufferFullStrategy } = bufferConfig
    let context: ProcessorContext<K, Change<V>>
    let buffer: InMemoryTimeOrderedKeyValueChangeBuffer<K, V>
    let observedStreamTime = -1
    const overCapacity = (): boolean => buffer.numRecords() > maxRecords || buffer.bufferSize() > maxBytes
    const emit = (eviction: Eviction<K, V>): void => {
      if (finalResults && eviction.value.newValue === null) return
      const c = eviction.context
      const record = new Record(eviction.key, eviction.value, c.timestamp, c.headers)
      withRecordContext(context, c, () => {
        context.forward(record)
      })
    }
    return {
      init(c) {
        context = c
        buffer = c.getStateStore<InMemoryTimeOrderedKeyValueChangeBuffer<K, V>>(storeName)
        buffer.setSerdesIfNull(c.appConfigs)
      },
      process(record: Record<K, Change<V>>) {
        observedStreamTime = Math.max(observedStreamTime, record.timestamp)
        const bufferTime = finalResults ? (record.key as Windowed<unknown>).window.end : record.timestamp
        const metadata = context.recordMetadata()
        buffer.put(bufferTime, record.key, record.value, {
          timestamp: record.timestamp,
          offset: metadata?.offset ?? -1,
          topic: metadata?.topic,
          partition: metadata?.partition ?? -1,
          headers: record.headers
        })
        const expiryTime = observedStreamTime - suppressDurationMs
        buffer.evictWhile(() => buffer.minTimestamp() <= expiryTime, emit)
        if (!overCapacity()) return
        if (bufferFullStrategy === 'EMIT') {
          buffer.evictWhile(overCapacity, emit)
          return
        }
        throw new BufferFullError(
          `${name} buffer exceeded its max capacity. Currently [${buffer.numRecords()}/${String(maxRecords)}] records and ` +
            `[${buffer.bufferSize()}/${String(maxBytes)}] bytes.`,
          context.taskId.toString()
        )
      }
    }
  }
}
