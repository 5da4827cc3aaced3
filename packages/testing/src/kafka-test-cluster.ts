/**
 * A real Apache Kafka cluster for integration tests, without Docker: `KafkaTestCluster.start()`
 * runs one (or three, for failover tests) KRaft brokers on 127.0.0.1 from Maven Central jars
 * (Java 17 and Maven needed; jars cached in ~/.cache/kstreams) in a temporary directory, and
 * `stop()` removes them again. If the process exits without `stop()`, an 'exit' hook SIGKILLs the
 * JVMs (a process killed by a signal runs no hook; its brokers, in the same process group, get
 * a terminal's Ctrl-C themselves).
 * Same implementation as the repository's `npm run kafka` command (./kafka-local/).
 */
import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrokerProperties } from './kafka-local/broker-config.js'
import { LocalKafkaCluster, type BrokerStatus } from './kafka-local/local-kafka-cluster.js'

export interface KafkaTestClusterOptions {
  /** Combined broker+controller nodes; default 1. With 3, internal topics get RF 3 and min ISR 2. */
  readonly brokers?: number
  /** "4.1" (default, 4.1.1), "3.9" (fallback, 3.9.1) or x.y.z; default `$KAFKA_LOCAL_VERSION` or 4.1. */
  readonly version?: string
  /** Jar cache root; default `$KAFKA_LOCAL_CACHE_DIR`, else ~/.cache/kstreams. */
  readonly cacheDir?: string
  /** Run directory (configs, data, logs); default a fresh temporary directory, removed by stop(). */
  readonly runDir?: string
  /** -Xmx per broker; default 512m. */
  readonly heap?: string
  /** auto.create.topics.enable; default false (Kafka Streams needs existing source topics). */
  readonly autoCreateTopics?: boolean
  /** Extra server.properties entries for every broker. */
  readonly overrides?: BrokerProperties
  /** Default 120 s. */
  readonly startTimeoutMs?: number
  /** Progress lines (jar download, timings); default silent. */
  readonly onProgress?: (message: string) => void
}

export class KafkaTestCluster {
  readonly #cluster: LocalKafkaCluster
  readonly #ownsRunDir: boolean
  readonly #onExit: () => void
  #stopped = false

  private constructor(cluster: LocalKafkaCluster, ownsRunDir: boolean) {
    this.#cluster = cluster
    this.#ownsRunDir = ownsRunDir
    this.#onExit = () => {
      cluster.killSpawnedSync()
      if (ownsRunDir) rmSync(cluster.runDir, { recursive: true, force: true })
    }
    process.once('exit', this.#onExit)
  }

  static async start(options: KafkaTestClusterOptions = {}): Promise<KafkaTestCluster> {
    const ownsRunDir = options.runDir === undefined
    const runDir = options.runDir ?? (await mkdtemp(join(tmpdir(), 'kstreams-kafka-')))
    try {
      const cluster = await LocalKafkaCluster.start({
        ...options,
        runDir,
        version: options.version ?? nonEmpty(process.env.KAFKA_LOCAL_VERSION),
        detached: false
      })
      return new KafkaTestCluster(cluster, ownsRunDir)
    } catch (error) {
      if (ownsRunDir) await rm(runDir, { recursive: true, force: true })
      throw error
    }
  }

  /** "127.0.0.1:<port>[,...]", for `bootstrap.servers`. */
  get bootstrapServers(): string {
    return this.#cluster.bootstrapServers
  }

  /** One "127.0.0.1:<port>" per broker, for kafkajs' `brokers`. */
  get brokers(): string[] {
    return this.#cluster.nodes.map(n => `127.0.0.1:${n.port}`)
  }

  get kafkaVersion(): string {
    return this.#cluster.kafkaVersion
  }

  get runDir(): string {
    return this.#cluster.runDir
  }

  async status(): Promise<BrokerStatus[]> {
    return await this.#cluster.status()
  }

  /** SIGKILL broker `index` (0-based), as in a crash. */
  async killBroker(index: number): Promise<void> {
    await this.#cluster.killBroker(index)
  }

  /** SIGTERM broker `index` (0-based): a clean shutdown. */
  async stopBroker(index: number): Promise<void> {
    await this.#cluster.stopBroker(index)
  }

  /** Starts a killed or stopped broker again (same ports and data) and waits until it is back. */
  async restartBroker(index: number): Promise<void> {
    await this.#cluster.restartBroker(index)
  }

  /** The end of broker `index`'s log, for failure messages. */
  async logs(index: number, lines = 100): Promise<string> {
    return await this.#cluster.logs(index, lines)
  }

  /**
   * Stops every broker and removes the temporary run directory. Idempotent. Brokers get SIGKILL
   * (their data is deleted anyway, and a clean 3-node shutdown takes seconds) unless the caller
   * chose the run directory, which then keeps cleanly closed logs.
   */
  async stop(): Promise<void> {
    if (this.#stopped) return
    this.#stopped = true
    try {
      await this.#cluster.stop({ kill: this.#ownsRunDir, timeoutMs: 10_000 })
    } finally {
      process.removeListener('exit', this.#onExit)
      if (this.#ownsRunDir) await rm(this.#cluster.runDir, { recursive: true, force: true })
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
