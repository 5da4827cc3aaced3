/**
 * The partition time committed with a source offset, so stream time survives a restart or a
 * task move (Kafka Streams' committed-offset metadata: base64 of a magic byte 1 and the int64
 * partition time). @internal
 */
const MAGIC = 1

export function encodePartitionTime (partitionTime: number): string {
  const buf = Buffer.alloc(9)
  buf.writeUInt8(MAGIC, 0)
  buf.writeBigInt64BE(BigInt(partitionTime), 1)
  return buf.toString('base64')
}

/** The partition time in committed metadata, or undefined when absent or unreadable. */
export function decodePartitionTime (metadata: string | undefined): number | undefined {
  if (metadata === undefined || metadata === '') return undefined
  const buf = Buffer.from(metadata, 'base64')
  if (buf.length < 9 || (buf[0] !== 1 && buf[0] !== 2)) return undefined
  const time = Number(buf.readBigInt64BE(1))
  return time >= 0 ? time : undefined
}
