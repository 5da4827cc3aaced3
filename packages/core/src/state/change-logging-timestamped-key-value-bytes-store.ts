/**
 * The change-logging layer of timestamped key-value stores (Kafka's
 * ChangeLoggingTimestampedKeyValueBytesStore). The store below holds `[8-byte timestamp][value]`;
 * the changelog holds what Kafka Streams writes: the plain value, with the stored timestamp as
 * the record timestamp (a delete carries the current record's timestamp). Restoring turns the
 * records back into the stored layout: MeteredTimestampedKeyValueStore does that, as Kafka's state
 * manager does for every timestamped store, logged or not.
 */
import { ChangeLoggingKeyValueBytesStore } from './change-logging-key-value-bytes-store.js'

const TIMESTAMP_SIZE = 8
const TWO_POW_32 = 2 ** 32

export class ChangeLoggingTimestampedKeyValueBytesStore extends ChangeLoggingKeyValueBytesStore {
  protected override log (key: Buffer, valueAndTimestamp: Buffer | null): void {
    const writer = this.writer
    if (writer === undefined) return
    if (valueAndTimestamp === null) {
      writer.append(key, null, this.recordTimestamp())
      return
    }
    const timestamp = valueAndTimestamp.readInt32BE(0) * TWO_POW_32 + valueAndTimestamp.readUInt32BE(4)
    writer.append(key, valueAndTimestamp.subarray(TIMESTAMP_SIZE), timestamp)
  }
}
