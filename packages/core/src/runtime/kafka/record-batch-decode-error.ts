/**
 * The error of a fetched record batch that a client cannot decode: its compression codec is one
 * the client has no codec for, the codec failed on its bytes, or its records are corrupt. The
 * same bytes come back at every fetch, so waiting cannot help: the consumer's poll throws it
 * (after the records before the batch), and the stream thread fails with it, as Java's consumer
 * throws a KafkaException from poll() for a batch it cannot read.
 */
import { StreamsError } from '../../errors.js'

/** Kafka's compression codecs by the low three bits of a record batch's attributes. */
const CODECS: readonly string[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd']

/** Kafka's name of the compression codec in a record batch's attributes (`codec 5` for bits Kafka does not define). */
export function compressionCodecName(attributes: number): string {
  const bits = attributes & 0x07
  return CODECS[bits] ?? `codec ${bits}`
}

/** What a RecordBatchDecodeError names. */
export interface RecordBatchDecodeErrorOptions {
  /** The topic the batch was fetched from. */
  readonly topic: string
  /** Its partition. */
  readonly partition: number
  /** The base offset of the batch that could not be decoded. */
  readonly offset: number
  /** The batch's attributes (its compression codec is in the low three bits). */
  readonly attributes: number
  /** What the codec or the record decoder threw. */
  readonly cause?: unknown
}

/** A fetched record batch the client cannot decode: names the codec, the topic, the partition and the batch's offset (code KAFKA). */
export class RecordBatchDecodeError extends StreamsError {
  /** The topic the batch was fetched from. */
  readonly topic: string
  /** Its partition. */
  readonly partition: number
  /** The base offset of the batch. */
  readonly offset: number
  /** The batch's compression codec: none, gzip, snappy, lz4, zstd (or `codec N` for bits Kafka does not define). */
  readonly codec: string

  constructor(options: RecordBatchDecodeErrorOptions) {
    const codec = compressionCodecName(options.attributes)
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause ?? 'unknown reason')
    super(
      'KAFKA',
      `Cannot decode the record batch of ${options.topic}-${options.partition} at offset ${options.offset} ` +
        `(compression ${codec}): ${reason}`,
      options.cause === undefined ? {} : { cause: options.cause }
    )
    this.topic = options.topic
    this.partition = options.partition
    this.offset = options.offset
    this.codec = codec
  }
}
