/**
 * The change-logging layer of timestamped key-value stores (Kafka's
 * ChangeLoggingTimestampedKeyValueBytesStore). The store below holds `[8-byte timestamp][value]`;
 * the changelog holds what Kafka Streams writes: the plain value, with the stored timestamp as
 * the record timestamp (a delete carries the current record's timestamp). Restoring turns the
 * records back into the stored layout: MeteredTimestampedKeyValueStore does that, as Kafka's state
 * manager does for every timestamped store, logged or not.
 */
import { ChangeLoggingKeyValueBytesStore } from './change-logging-key-value-bytes-store.js'

export class ChangeLoggingTimestampedKeyValueBytesStore extends ChangeLoggingKeyValueBytesStore {
  protected override log(key: Buffer, valueAndTimestamp: Buffer | null): void {
    this.logTimestamped(key, valueAndTimestamp)
  }
}
