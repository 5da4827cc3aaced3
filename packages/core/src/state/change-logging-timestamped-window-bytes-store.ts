/**
 * The change-logging layer of timestamped window stores (Kafka's
 * ChangeLoggingTimestampedWindowBytesStore). The store below holds `[8-byte timestamp][value]`;
 * the changelog holds what Kafka Streams writes: the plain value, with the stored timestamp as
 * the record timestamp (a delete carries the current record's timestamp). Restoring turns the
 * records back into the stored layout: MeteredTimestampedWindowStore does that, as Kafka's state
 * manager does for every timestamped store.
 */
import { ChangeLoggingWindowBytesStore } from './change-logging-window-bytes-store.js'

export class ChangeLoggingTimestampedWindowBytesStore extends ChangeLoggingWindowBytesStore {
  protected override log(storeKey: Buffer, valueAndTimestamp: Buffer | null): void {
    this.logTimestamped(storeKey, valueAndTimestamp)
  }
}
