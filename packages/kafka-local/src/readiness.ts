/**
 * When a local cluster is ready: first each broker's client port accepts a TCP connection
 * (Kafka opens it only after the broker caught up on metadata and was unfenced), then a real
 * Metadata request through kafkajs lists every expected broker. Both steps give up early when
 * the JVM has died, so a bad config fails fast instead of timing out.
 */
import { connect } from 'node:net'
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs'
import { KafkaLocalError } from './kafka-local-error.js'

/** How a wait learns that the broker died, and what to say when it gives up. */
export interface ReadinessProbe {
  /** Resolves true while the broker process is alive; a false aborts the wait. */
  readonly isAlive: () => Promise<boolean>
  /** Text shown when the wait fails (e.g. the end of the broker's log). */
  readonly describeFailure: () => Promise<string>
}

const POLL_MS = 100

/** Resolves once 127.0.0.1:port accepts connections; BROKER_EXITED or START_TIMEOUT with the probe's description otherwise. */
export async function waitForPort(port: number, deadline: number, probe: ReadinessProbe): Promise<void> {
  for (;;) {
    if (await canConnect(port)) return
    if (!(await probe.isAlive())) {
      throw new KafkaLocalError('BROKER_EXITED', `broker on port ${port} exited during start-up:\n${await probe.describeFailure()}`)
    }
    if (Date.now() > deadline) {
      throw new KafkaLocalError('START_TIMEOUT', `broker on port ${port} did not open its port in time:\n${await probe.describeFailure()}`)
    }
    await sleep(POLL_MS)
  }
}

/**
 * Waits until a Metadata request answered through `bootstrapServers` lists all `nodeIds`;
 * `security` is the `ssl` and `sasl` of a secured cluster's super user.
 */
export async function waitForMetadata(
  bootstrapServers: string,
  nodeIds: readonly number[],
  deadline: number,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {}
): Promise<void> {
  const kafka = new Kafka({
    ...security,
    clientId: 'kstreams-kafka-local-readiness',
    brokers: bootstrapServers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 0 }
  })
  let last: unknown
  for (;;) {
    const admin = kafka.admin()
    try {
      await admin.connect()
      const cluster = await admin.describeCluster()
      const seen = new Set(cluster.brokers.map(b => b.nodeId))
      if (nodeIds.every(id => seen.has(id))) return
      last = `metadata lists brokers [${[...seen].join(', ')}], expected [${nodeIds.join(', ')}]`
    } catch (error) {
      last = error
    } finally {
      await admin.disconnect().catch(() => {})
    }
    if (Date.now() > deadline) {
      throw new KafkaLocalError('START_TIMEOUT', `cluster at ${bootstrapServers} did not answer metadata with every broker in time`, {
        cause: last
      })
    }
    await sleep(200)
  }
}

/** True when a TCP connection to 127.0.0.1:port opens within `timeoutMs`. */
export async function canConnect(port: number, timeoutMs = 1000): Promise<boolean> {
  return await new Promise(resolve => {
    const socket = connect({ host: '127.0.0.1', port })
    const done = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => {
      done(false)
    })
    socket.once('connect', () => {
      done(true)
    })
    socket.once('error', () => {
      done(false)
    })
  })
}

async function sleep(ms: number): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, ms))
}
