/**
 * A real Apache Kafka cluster for integration tests, without Docker: `KafkaTestCluster.start()`
 * runs one (or three, for failover tests) KRaft brokers on 127.0.0.1 from Maven Central jars in
 * a temporary directory, and `stop()` removes them again. Needs Java 17+ and, on the first run
 * for a Kafka version, Maven with access to Maven Central (README.md of this package). If the
 * process exits without `stop()`, an 'exit' hook SIGKILLs the JVMs (a process killed by a signal
 * runs no hook; its brokers, in the same process group, get a terminal's Ctrl-C themselves).
 * Same implementation as the repository's `npm run kafka` command (LocalKafkaCluster).
 */
import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrokerProperties } from './broker-config.js'
import type { ClusterSecurity } from './cluster-security.js'
import { LocalKafkaCluster, type BrokerStatus } from './local-kafka-cluster.js'
import type { BrokerLogLevel } from './logging-config.js'
import type { SecurityOptions } from './security-options.js'

/** Options of `KafkaTestCluster.start()`; all are optional. */
export interface KafkaTestClusterOptions {
  /** Combined broker+controller nodes, 1 to 9; default 1. With 3, internal topics get RF 3 and min ISR 2. */
  readonly brokers?: number
  /** "4.1" (= 4.1.1), "3.9" (= 3.9.1, the fallback) or x.y.z (4.x, or 3.5+); default `$KAFKA_LOCAL_VERSION`, else 4.1. */
  readonly version?: string
  /**
   * Root of the jar cache, shared by every run on the machine; default `$KAFKA_LOCAL_CACHE_DIR`,
   * else `$XDG_CACHE_HOME/kstreams`, else `~/.cache/kstreams`.
   */
  readonly cacheDir?: string
  /** Run directory (configs, data, logs); default a fresh temporary directory, removed by stop(). */
  readonly runDir?: string
  /** -Xmx per broker; default "512m". */
  readonly heap?: string
  /** auto.create.topics.enable; default false (Kafka Streams needs existing source topics). */
  readonly autoCreateTopics?: boolean
  /** Extra server.properties entries for every broker (they win over the defaults). */
  readonly overrides?: BrokerProperties
  /**
   * Secure the client listener: `{ protocol: 'sasl_ssl', saslMechanisms: ['scram-sha-512'], authorizer: true,
   * users: { alice: 'alice-secret' } }`, `{ protocol: 'ssl', mtls: true }`, ... Default: PLAINTEXT.
   * The credentials come back as `security`.
   */
  readonly security?: SecurityOptions
  /** How long each broker may take to start and answer metadata; default 120 s. */
  readonly startTimeoutMs?: number
  /**
   * The Java (17 or newer) that runs the brokers and Kafka's StorageTool; default
   * `$JAVA_HOME/bin/java` when JAVA_HOME is set, else `java` on PATH.
   */
  readonly javaCommand?: string
  /**
   * The Maven (3.8 or newer) that fetches the broker jars from Maven Central when the cache does
   * not hold them yet (first run per Kafka version); default `mvn` on PATH. Not run on a cache hit.
   */
  readonly mavenCommand?: string
  /** Root log level of each broker's log file; default "WARN" (plus the line that says it started). */
  readonly logLevel?: BrokerLogLevel
  /** Extra JVM flags for each broker, after the defaults (e.g. `['-XX:ActiveProcessorCount=2']`). */
  readonly jvmArgs?: readonly string[]
  /**
   * Class-data sharing archives for faster JVM start-up (made once per cached Kafka version, by a
   * training run of ~8 s); default true. false starts every JVM without them.
   */
  readonly classDataSharing?: boolean
  /** Progress lines (jar download, timings); default silent. */
  readonly onProgress?: (message: string) => void
}

/**
 * A throwaway local Kafka cluster for a test run: start it in a `before` hook, give its
 * `bootstrapServers` to the code under test, `stop()` it in `after`. Brokers can be killed,
 * stopped and restarted one by one for failover tests.
 */
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

  /**
   * Resolves the jars (Maven on the first run only), formats and starts the brokers, and resolves
   * once every broker accepts connections and a Metadata request lists them all. Rejects with a
   * KafkaLocalError (e.g. JAVA_NOT_FOUND, MAVEN_FAILED, BROKER_EXITED with the end of the
   * broker's log, START_TIMEOUT), after removing what it started.
   */
  static async start(options: KafkaTestClusterOptions = {}): Promise<KafkaTestCluster> {
    const ownsRunDir = options.runDir === undefined
    const runDir = options.runDir ?? (await mkdtemp(join(tmpdir(), 'kstreams-kafka-')))
    try {
      const cluster = await LocalKafkaCluster.start({
        runDir,
        brokers: options.brokers,
        version: options.version ?? nonEmpty(process.env.KAFKA_LOCAL_VERSION),
        cacheDir: options.cacheDir,
        heap: options.heap,
        autoCreateTopics: options.autoCreateTopics,
        overrides: options.overrides,
        security: options.security,
        startTimeoutMs: options.startTimeoutMs,
        javaCommand: options.javaCommand,
        mavenCommand: options.mavenCommand,
        logLevel: options.logLevel,
        jvmArgs: options.jvmArgs,
        classDataSharing: options.classDataSharing,
        onProgress: options.onProgress,
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

  /**
   * A secured cluster's credentials in kafkajs' and kstreams' shapes (`clientOptions()`, `ssl`,
   * `sasl()`), its files, more client certificates and ACL grants; undefined for PLAINTEXT.
   */
  get security(): ClusterSecurity | undefined {
    return this.#cluster.security
  }

  /** The Kafka release the brokers run, e.g. "4.1.1". */
  get kafkaVersion(): string {
    return this.#cluster.kafkaVersion
  }

  /** Where the brokers' configs, data and logs are (node-<id>/broker.log). */
  get runDir(): string {
    return this.#cluster.runDir
  }

  /** Per broker: node id, pid, port, whether its JVM runs and its port accepts connections, its log file. */
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
