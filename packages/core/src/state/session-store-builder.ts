/**
 * Builds session stores from a bytes-store supplier (Kafka's SessionStoreBuilder): each build()
 * wraps a new backend store in change-logging (when logging is enabled), then caching (when
 * caching is enabled), then the metered layer, which applies the serdes. The changelog topic
 * gets the windowed configs (`cleanup.policy=compact,delete`, `retention.ms` = retention period
 * + one day), overridable by the topic configs given to withLoggingEnabled().
 */
import { StreamsError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { CachingSessionStore } from './caching-session-store.js'
import { ChangeLoggingSessionBytesStore } from './change-logging-session-bytes-store.js'
import { MeteredSessionStore } from './metered-session-store.js'
import type { SessionBytesStore, SessionBytesStoreSupplier, SessionStore } from './session-store.js'
import { WindowedStoreBuilderBase } from './windowed-store-builder-base.js'

/** Builds session stores from a bytes-store supplier (Kafka's SessionStoreBuilder). */
export class SessionStoreBuilder<K, AGG> extends WindowedStoreBuilderBase<K, AGG, SessionStore<K, AGG>, SessionBytesStoreSupplier> {
  constructor(supplier: SessionBytesStoreSupplier, keySerde?: Serde<K>, valueSerde?: Serde<AGG>) {
    super(checkSessionSupplier(supplier), keySerde, valueSerde)
  }

  build(): SessionStore<K, AGG> {
    const supplier = this.supplier
    const logged: SessionBytesStore = this.loggingEnabled ? new ChangeLoggingSessionBytesStore(supplier.get()) : supplier.get()
    const cached = this.cachingEnabled
      ? new CachingSessionStore(logged, { segmentInterval: supplier.segmentInterval, retentionPeriod: supplier.retentionPeriod })
      : logged
    return new MeteredSessionStore<K, AGG>(this.meteredOptions(cached))
  }
}

function checkSessionSupplier(supplier: SessionBytesStoreSupplier): SessionBytesStoreSupplier {
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
