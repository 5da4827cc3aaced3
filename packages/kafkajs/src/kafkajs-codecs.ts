/**
 * The snappy, lz4 and zstd codecs of the kafkajs adapter (kafkajs ships gzip only), registered
 * through kafkajs' own mechanism: its `CompressionCodecs` registry. They are the libraries
 * @platformatic/kafka uses, so both adapters read and write the same bytes: snappy and lz4 from
 * @platformatic/wasm-utils (WebAssembly, no native build; loaded on first use), zstd from
 * node:zlib (Node.js 22.15 and later; on older Node.js, zstd stays unregistered). Snappy reads
 * both Java's xerial framing and plain snappy, and writes plain snappy (which Java's
 * SnappyInputStream reads); lz4 is the LZ4 frame format of Kafka's record batches (magic 2).
 *
 * kafkajs' registry is module-global: registering a codec there gives it to every kafkajs client
 * of the process. So a codec is registered only where kafkajs has none (its own placeholder
 * throws "not implemented"): a codec the application registered itself, before or after, is
 * the one used.
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import kafkajsModule, { CompressionTypes } from 'kafkajs'

/** kafkajs' codec registry: not one of the names Node.js finds in kafkajs' CommonJS exports, so read from its module object. */
const { CompressionCodecs } = kafkajsModule

/** A codec as kafkajs calls it: `compress` gets kafkajs' encoder of the records. */
interface KafkajsCodec {
  compress(encoder: { readonly buffer: Buffer }): Promise<Buffer>
  decompress(buffer: Buffer): Promise<Buffer>
}

type WasmUtils = typeof import('@platformatic/wasm-utils')
let wasmUtils: Promise<WasmUtils> | undefined
const wasm = async (): Promise<WasmUtils> => await (wasmUtils ??= import('@platformatic/wasm-utils'))

/** The stream header of Java's snappy (snappy-java's SnappyOutputStream), followed by two int32 versions. */
const XERIAL_HEADER = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00])
const XERIAL_CHUNKS_AT = 16

/** Snappy bytes as Java writes them (xerial chunks) or as one plain snappy block. */
function unsnappy(data: Buffer, decompress: (block: Buffer) => Buffer): Buffer {
  if (!data.subarray(0, XERIAL_HEADER.length).equals(XERIAL_HEADER)) return decompress(data)
  const chunks: Buffer[] = []
  let at = XERIAL_CHUNKS_AT
  while (at < data.length) {
    if (at + 4 > data.length) throw new Error('xerial snappy: a chunk length past the end of the data')
    const length = data.readUInt32BE(at)
    at += 4
    if (at + length > data.length) throw new Error('xerial snappy: a chunk past the end of the data')
    chunks.push(decompress(data.subarray(at, at + length)))
    at += length
  }
  return Buffer.concat(chunks)
}

const snappy: KafkajsCodec = {
  compress: async encoder => (await wasm()).snappyCompress(encoder.buffer),
  decompress: async buffer => unsnappy(buffer, (await wasm()).snappyDecompress)
}

const lz4: KafkajsCodec = {
  compress: async encoder => (await wasm()).lz4Compress(encoder.buffer),
  decompress: async buffer => (await wasm()).lz4Decompress(buffer)
}

/** node:zlib's zstd, where this Node.js has it (22.15 and later). */
function zstdCodec(): KafkajsCodec | undefined {
  const z = zlib as unknown as {
    zstdCompress?: (data: Buffer, callback: (error: Error | null, result: Buffer) => void) => void
    zstdDecompress?: (data: Buffer, callback: (error: Error | null, result: Buffer) => void) => void
  }
  if (typeof z.zstdCompress !== 'function' || typeof z.zstdDecompress !== 'function') return undefined
  const compress = promisify(z.zstdCompress)
  const decompress = promisify(z.zstdDecompress)
  return { compress: async encoder => await compress(encoder.buffer), decompress: async buffer => await decompress(buffer) }
}

const BUILT_IN: ReadonlyArray<readonly [CompressionTypes, KafkajsCodec | undefined]> = [
  [CompressionTypes.Snappy, snappy],
  [CompressionTypes.LZ4, lz4],
  [CompressionTypes.ZSTD, zstdCodec()]
]

const registry = CompressionCodecs as unknown as Record<number, () => KafkajsCodec | null | undefined>

/** Whether kafkajs has a codec for `type` (its placeholders for the codecs it lacks throw). */
export function hasKafkajsCodec(type: CompressionTypes): boolean {
  if (type === CompressionTypes.None) return true
  try {
    return registry[type]?.() != null
  } catch {
    return false
  }
}

/** Registers this adapter's codecs in kafkajs' CompressionCodecs where kafkajs has none; idempotent. */
export function registerKafkajsCodecs(): void {
  for (const [type, codec] of BUILT_IN) {
    if (codec !== undefined && !hasKafkajsCodec(type)) registry[type] = () => codec
  }
}
