/**
 * Builds session stores from a bytes-store supplier (Kafka's SessionStoreBuilder): each build()
 * wraps a new backend store in the metered layer, which applies the serdes.
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { AbstractStoreBuilder } from './abstract-store-builder.js'
import { MeteredSessionStore } from './metered-session-store.js'
import type { SessionBytesStoreSupplier, SessionStore } from './session-store.js'

export class SessionStoreBuilder<K, AGG> extends AbstractStoreBuilder<K, AGG, SessionStore<K, AGG>> {
  readonly #supplier: SessionBytesStoreSupplier

  constructor (supplier: SessionBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<AGG>) {
    super(checkSessionSupplier(supplier).name, keySerde, valueSerde)
    this.#supplier = supplier
  }

  /** The supplier's retention period (ms); the changelog topic's retention derives from it. */
  get retentionPeriod (): number {
    return this.#supplier.retentionPeriod
  }

  build (): SessionStore<K, AGG> {
    return new MeteredSessionStore<K, AGG>({
      inner: this.#supplier.get(),
      metricsScope: this.#supplier.metricsScope,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde
    })
  }
}

function checkSessionSupplier (supplier: SessionBytesStoreSupplier): SessionBytesStoreSupplier {
  if (supplier === null || supplier === undefined || typeof supplier.get !== 'function') {
    throw new StreamsError('ILLEGAL_ARGUMENT', 'A session store builder needs a store supplier with a get() method')
  }
  if (typeof supplier.metricsScope !== 'string' || supplier.metricsScope.length === 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no metricsScope`)
  }
  if (!Number.isSafeInteger(supplier.retentionPeriod)) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `The supplier of store "${String(supplier.name)}" has no integer retentionPeriod`)
  }
  return supplier
}
