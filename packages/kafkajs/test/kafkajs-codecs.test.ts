/**
 * The snappy, lz4 and zstd codecs the kafkajs adapter registers in kafkajs' CompressionCodecs:
 * record batches compressed by kafkajs' own encoder with each are read back by kafkajs' own
 * decoder; snappy also reads the xerial framing Java's producer writes; a codec the application
 * registered itself is kept.
 */
import { createRequire } from 'node:module'
import zlib from 'node:zlib'
import { expect } from 'chai'
import { snappyCompress } from '@platformatic/wasm-utils'
import kafkajsModule, { CompressionTypes } from 'kafkajs'
import { hasKafkajsCodec, registerKafkajsCodecs } from '../src/kafkajs-codecs.js'
import { recordBatch } from './fetch-response-fixture.js'

const { CompressionCodecs } = kafkajsModule

const require = createRequire(import.meta.url)
const { KafkaJSNotImplemented } = require('kafkajs/src/errors.js') as { KafkaJSNotImplemented: new (message: string) => Error }
const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js') as (
  decoder: unknown
) => Promise<Array<{ offset: string; value: Buffer | null }>>
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => unknown
const registry = CompressionCodecs as unknown as Record<number, () => unknown>
const zstdInNode = typeof (zlib as { zstdCompress?: unknown }).zstdCompress === 'function'

describe('kafkajs codecs (snappy, lz4, zstd)', () => {
  before(() => {
    registerKafkajsCodecs()
  })

  const codecs: Array<[string, CompressionTypes]> = [
    ['gzip', CompressionTypes.GZIP],
    ['snappy', CompressionTypes.Snappy],
    ['lz4', CompressionTypes.LZ4],
    ...(zstdInNode ? [['zstd', CompressionTypes.ZSTD] as [string, CompressionTypes]] : [])
  ]
  for (const [name, type] of codecs) {
    it(`${name}: a batch kafkajs compressed is read back by its decoder, and carries the codec in its attributes`, async () => {
      const values = Array.from({ length: 50 }, (_, i) => `value-${i}-${'x'.repeat(i)}`)
      const batch = await recordBatch(100, values.length - 1, values, type)
      expect(batch.readInt16BE(21) & 0x07).to.equal(type)
      const size = Buffer.alloc(4)
      size.writeInt32BE(batch.length)
      const messages = await decodeMessages(new Decoder(Buffer.concat([size, batch])))
      expect(messages.map(m => [m.offset, m.value?.toString()])).to.deep.equal(values.map((v, i) => [String(100 + i), v]))
    })
  }

  it('zstd is registered exactly when node:zlib has it', () => {
    expect(hasKafkajsCodec(CompressionTypes.ZSTD)).to.equal(zstdInNode)
  })

  it("snappy reads Java's xerial framing (a stream header, then length-prefixed snappy chunks)", async () => {
    const parts = ['first chunk ', 'second chunk, '.repeat(20), 'third']
    const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1])
    const chunks = parts.map(p => {
      const block = snappyCompress(Buffer.from(p))
      const length = Buffer.alloc(4)
      length.writeUInt32BE(block.length)
      return Buffer.concat([length, block])
    })
    const codec = registry[CompressionTypes.Snappy]!() as { decompress(b: Buffer): Promise<Buffer> }
    expect((await codec.decompress(Buffer.concat([header, ...chunks]))).toString()).to.equal(parts.join(''))
    await codec.decompress(Buffer.concat([header, ...chunks]).subarray(0, 30)).then(
      () => expect.fail('a chunk cut short was decompressed'),
      (error: Error) => expect(error.message).to.include('xerial snappy')
    )
  })

  it('keeps a codec the application registered, and registers again where kafkajs has none', () => {
    const ours = registry[CompressionTypes.LZ4]!
    const theirs = { compress: async () => Buffer.alloc(0), decompress: async () => Buffer.alloc(0) }
    try {
      registry[CompressionTypes.LZ4] = () => theirs
      registerKafkajsCodecs()
      expect(registry[CompressionTypes.LZ4]!()).to.equal(theirs)
      registry[CompressionTypes.LZ4] = () => {
        throw new KafkaJSNotImplemented('LZ4 compression not implemented')
      }
      expect(hasKafkajsCodec(CompressionTypes.LZ4)).to.equal(false)
      registerKafkajsCodecs()
      expect(hasKafkajsCodec(CompressionTypes.LZ4)).to.equal(true)
      expect(registry[CompressionTypes.LZ4]!()).to.equal(ours())
    } finally {
      registry[CompressionTypes.LZ4] = ours
    }
  })
})
