/**
 * One entry of a suppression buffer (Kafka Streams' BufferValue with its ProcessorRecordContext):
 * the serialized prior value (the table's value before the key entered the buffer), the old and
 * new values of the latest buffered update, and the record context of that update. Owns the
 * changelog encoding (Kafka Streams' v3 layout: `[context][prior][old][new][8-byte buffer time]`,
 * a value being `[int32 length][bytes]` or length -1 for null, the old value -2 when it is the
 * prior value) and Kafka Streams' memory estimate used by `BufferConfig.maxBytes`. @internal
 */
import { Headers } from '@kstreams/core'
import type { Header } from '@kstreams/core'

export interface BufferedRecordContext {
  readonly timestamp: number
  readonly offset: number
  readonly topic: string | undefined
  readonly partition: number
  readonly headers: Headers
}

const NULL_VALUE = -1
const OLD_IS_PRIOR = -2

export class BufferValue {
  constructor(
    readonly priorValue: Buffer | null,
    readonly oldValue: Buffer | null,
    readonly newValue: Buffer | null,
    readonly context: BufferedRecordContext
  ) {}

  /** Kafka Streams' residentMemorySizeEstimate: the old value counts unless it is the prior value itself. */
  sizeEstimate(): number {
    const c = this.context
    let contextSize = 8 + 8 + 4 + (c.topic === undefined ? 0 : c.topic.length)
    for (const header of c.headers) contextSize += header.key.length + (header.value === null ? 0 : header.value.length)
    return (
      (this.priorValue?.length ?? 0) +
      (this.oldValue === null || this.priorValue === this.oldValue ? 0 : this.oldValue.length) +
      (this.newValue?.length ?? 0) +
      contextSize
    )
  }

  /** The changelog value of this entry buffered at `time`. */
  serialize(time: number): Buffer {
    const parts: Buffer[] = [serializeContext(this.context), lengthPrefixed(this.priorValue)]
    if (this.oldValue === null) parts.push(int32(NULL_VALUE))
    else if (this.priorValue !== null && this.priorValue.equals(this.oldValue)) parts.push(int32(OLD_IS_PRIOR))
    else parts.push(lengthPrefixed(this.oldValue))
    parts.push(lengthPrefixed(this.newValue))
    const timeBytes = Buffer.alloc(8)
    timeBytes.writeBigInt64BE(BigInt(time))
    parts.push(timeBytes)
    return Buffer.concat(parts)
  }

  /** Reads a changelog value back: the entry and its buffer time. */
  static deserialize(data: Buffer): { value: BufferValue; time: number } {
    let pos = 0
    const readInt = (): number => {
      const v = data.readInt32BE(pos)
      pos += 4
      return v
    }
    const readBytes = (length: number): Buffer => {
      const b = Buffer.from(data.subarray(pos, pos + length))
      pos += length
      return b
    }
    const timestamp = Number(data.readBigInt64BE(pos))
    const offset = Number(data.readBigInt64BE(pos + 8))
    pos += 16
    const topic = readBytes(readInt()).toString('utf8')
    const partition = readInt()
    const headerCount = readInt()
    const headers: Header[] = []
    for (let i = 0; i < headerCount; i++) {
      const key = readBytes(readInt()).toString('utf8')
      const length = readInt()
      headers.push({ key, value: length < 0 ? null : readBytes(length) })
    }
    const readValue = (): Buffer | null => {
      const length = readInt()
      return length < 0 ? null : readBytes(length)
    }
    const prior = readValue()
    const oldLength = readInt()
    const old = oldLength === OLD_IS_PRIOR ? prior : oldLength < 0 ? null : readBytes(oldLength)
    const newValue = readValue()
    const time = Number(data.readBigInt64BE(pos))
    const context = { timestamp, offset, topic, partition, headers: new Headers(headers) }
    return { value: new BufferValue(prior, old, newValue, context), time }
  }
}

function int32(value: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(value)
  return b
}

function lengthPrefixed(value: Buffer | null): Buffer {
  return value === null ? int32(NULL_VALUE) : Buffer.concat([int32(value.length), value])
}

/** Kafka Streams' ProcessorRecordContext.serialize. */
function serializeContext(c: BufferedRecordContext): Buffer {
  const head = Buffer.alloc(16)
  head.writeBigInt64BE(BigInt(c.timestamp))
  head.writeBigInt64BE(BigInt(c.offset), 8)
  const topic = Buffer.from(c.topic ?? '', 'utf8')
  const headers = [...c.headers]
  const parts: Buffer[] = [head, int32(topic.length), topic, int32(c.partition), int32(headers.length)]
  for (const header of headers) {
    const key = Buffer.from(header.key, 'utf8')
    parts.push(int32(key.length), key, lengthPrefixed(header.value))
  }
  return Buffer.concat(parts)
}
