/**
 * Builds the shared store of a left/outer stream-stream join: an OuterJoinStore (the list layer)
 * over the metered, optionally change-logged key-value bytes store of the supplier. Caching is
 * always off, as in Kafka. @internal
 */
import type { KeyValueStore } from '@kstreams/core'
import { KeyValueBackedStoreBuilder } from './key-value-backed-store.js'
import { OuterJoinStore } from './outer-join-store.js'

export class OuterJoinStoreBuilder extends KeyValueBackedStoreBuilder<OuterJoinStore> {
  protected wrap(inner: KeyValueStore<Buffer, Buffer>): OuterJoinStore {
    return new OuterJoinStore(inner)
  }
}
