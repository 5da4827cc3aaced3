/**
 * What kstreams logs, through a logger of pino's shape (fields first, then the message; child
 * bindings): with SASL credentials and TLS key material in the config, no line at any level (the
 * client library's own lines included, kafkajs at debug) carries them, while the TLS handshake
 * against the plaintext test broker fails and is retried; the stream thread's lines carry the
 * thread in their bindings.
 */
import { expect } from 'chai'
import { KafkaStreams, Serdes, Topology, type Logger, type StreamsConfig } from '@kstreams/core'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { bootstrapServers, sleep, tempDir, unique } from './helpers.js'

const PASSWORD = 's3cret-Pa55word'
const KEY = '-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'

/** A pino-shaped logger recording every line with its bindings, children included. */
function recordingLogger(
  lines: Array<{ level: string; bindings: object; fields: object | undefined; message: string }>,
  bindings = {}
): Logger {
  const at =
    (level: string) =>
    (first: object | string, message?: string): void => {
      lines.push(
        typeof first === 'string'
          ? { level, bindings, fields: undefined, message: first }
          : { level, bindings, fields: first, message: message ?? '' }
      )
    }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: more => recordingLogger(lines, { ...bindings, ...more })
  }
}

describe('logging: no secret in any line, thread bindings', function () {
  this.timeout(60000)
  for (const [name, client] of [
    ['kafkajs', () => kafkajs({ logLevel: 'debug', retry: { retries: 1, initialRetryTime: 50 } })],
    ['platformatic', () => platformatic()]
  ] as const) {
    it(`${name}: SASL password and TLS key never reach the logger`, async () => {
      const S = Serdes.String()
      const topology = new Topology()
        .addSource('source', unique('in'), { keyDeserializer: S, valueDeserializer: S })
        .addSink('sink', unique('out'), { keySerializer: S, valueSerializer: S }, 'source')
      const dir = await tempDir('kstreams-logging')
      const config: StreamsConfig = {
        applicationId: unique('logging'),
        bootstrapServers: bootstrapServers(),
        stateDir: dir.path,
        connectionTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        sasl: { mechanism: 'plain', username: 'alice', password: PASSWORD },
        ssl: { key: KEY, cert: KEY, passphrase: PASSWORD, rejectUnauthorized: false }
      }
      const lines: Array<{ level: string; bindings: object; fields: object | undefined; message: string }> = []
      const streams = new KafkaStreams(topology, config, { client: client(), logger: recordingLogger(lines) })
      try {
        await Promise.race([streams.start().catch(() => undefined), sleep(4000)])
        await sleep(2000)
      } finally {
        await streams.close({ timeoutMs: 10000 })
        await dir.remove()
      }
      expect(lines.length).to.be.greaterThan(0)
      const text = JSON.stringify(lines, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v))
      expect(text).not.to.contain(PASSWORD)
      expect(text).not.to.contain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC')
      expect(lines.some(l => /StreamThread-1$/.test(String((l.bindings as { thread?: unknown }).thread)))).to.equal(true)
    })
  }
})
