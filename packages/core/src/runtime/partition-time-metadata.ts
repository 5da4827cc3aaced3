/**
 * The metadata committed with a source offset (Kafka Streams' TopicPartitionMetadata): the
 * partition time, so stream time survives a restart or a task move, and the task's processor
 * metadata (KIP-825: e.g. the last window close time an emit-on-window-close aggregation emitted),
 * so a restarted task does not emit twice. Base64 of a magic byte, the int64 partition time, and
 * with magic 2 the processor metadata: int32 entry count, then per entry an int32 key length, the
 * UTF-8 key and an int64 value. @internal
 */
const WITHOUT_PROCESSOR_METADATA = 1
const WITH_PROCESSOR_METADATA = 2

export interface CommitMetadata {
  /** The committed partition time, or undefined when absent or unreadable. */
  readonly partitionTime: number | undefined
  readonly processorMetadata: ReadonlyMap<string, number>
}

export function encodePartitionTime(partitionTime: number, processorMetadata: ReadonlyMap<string, number> = new Map()): string {
  if (processorMetadata.size === 0) {
    const buf = Buffer.alloc(9)
    buf.writeUInt8(WITHOUT_PROCESSOR_METADATA, 0)
    buf.writeBigInt64BE(BigInt(partitionTime), 1)
    return buf.toString('base64')
  }
  const entries = [...processorMetadata].map(([key, value]) => [Buffer.from(key, 'utf8'), value] as const)
  const buf = Buffer.alloc(13 + entries.reduce((n, [key]) => n + 12 + key.length, 0))
  buf.writeUInt8(WITH_PROCESSOR_METADATA, 0)
  buf.writeBigInt64BE(BigInt(partitionTime), 1)
  buf.writeInt32BE(entries.length, 9)
  let at = 13
  for (const [key, value] of entries) {
    buf.writeInt32BE(key.length, at)
    key.copy(buf, at + 4)
    buf.writeBigInt64BE(BigInt(value), at + 4 + key.length)
    at += 12 + key.length
  }
  return buf.toString('base64')
}

/** The partition time and processor metadata in committed metadata; whatever is unreadable is left out. */
export function decodeCommitMetadata(metadata: string | undefined): CommitMetadata {
  const processorMetadata = new Map<string, number>()
  if (metadata === undefined || metadata === '') return { partitionTime: undefined, processorMetadata }
  const buf = Buffer.from(metadata, 'base64')
  if (buf.length < 9 || (buf[0] !== WITHOUT_PROCESSOR_METADATA && buf[0] !== WITH_PROCESSOR_METADATA))
    return { partitionTime: undefined, processorMetadata }
  const time = Number(buf.readBigInt64BE(1))
  if (buf[0] === WITH_PROCESSOR_METADATA && buf.length >= 13) {
    const count = buf.readInt32BE(9)
    let at = 13
    for (let i = 0; i < count && at + 4 <= buf.length; i++) {
      const length = buf.readInt32BE(at)
      if (length < 0 || at + 4 + length + 8 > buf.length) break
      processorMetadata.set(buf.toString('utf8', at + 4, at + 4 + length), Number(buf.readBigInt64BE(at + 4 + length)))
      at += 12 + length
    }
  }
  return { partitionTime: time >= 0 ? time : undefined, processorMetadata }
}
