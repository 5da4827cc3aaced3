/**
 * ConsumerProtocolSubscription and ConsumerProtocolAssignment v0 bytes, written here so the
 * contract depends on no client library. A Kafka 4 coordinator decodes the subscription and
 * assignment bytes of protocol type "consumer" (a join with undecodable bytes never completes),
 * so group tests send real ones, made distinct by their user data.
 */

const int16 = (n: number): Buffer => {
  const b = Buffer.alloc(2)
  b.writeInt16BE(n)
  return b
}
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
const string = (s: string): Buffer => {
  const bytes = Buffer.from(s, 'utf8')
  return Buffer.concat([int16(bytes.length), bytes])
}
const bytes = (b: Buffer): Buffer => Buffer.concat([int32(b.length), b])
const array = <T>(items: readonly T[], encode: (item: T) => Buffer): Buffer => Buffer.concat([int32(items.length), ...items.map(encode)])

/** A subscription (v0) to `topics` with `userData`. */
export function subscriptionBytes(topics: readonly string[], userData: string): Buffer {
  return Buffer.concat([int16(0), array(topics, string), bytes(Buffer.from(userData))])
}

/** An assignment (v0) of partitions by topic, with `userData`. */
export function assignmentBytes(partitions: Readonly<Record<string, readonly number[]>>, userData: string): Buffer {
  const topics = Object.entries(partitions)
  return Buffer.concat([
    int16(0),
    array(topics, ([topic, list]) => Buffer.concat([string(topic), array(list, int32)])),
    bytes(Buffer.from(userData))
  ])
}
