/**
 * A local Apache Kafka cluster of 1..9 combined KRaft nodes on 127.0.0.1, run from Maven Central
 * jars with plain `java -cp`: resolves the jars, writes one server.properties per node, formats
 * every log directory with one cluster id, spawns the JVMs, records their pids in the run
 * directory, and waits until every broker accepts connections and answers metadata. Stopping
 * signals only the recorded pids (after checking their command line). The `kafka-local` CLI and
 * `KafkaTestCluster` are both thin layers over this class.
 *
 * Run directory layout: cluster.json, bootstrap.servers, node-<id>/{server.properties, broker.log, data/},
 * and for a secured cluster security/ (CA, certificates, key and trust stores, client.properties).
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { BrokerProcess, type BrokerLaunchOptions } from './broker-process.js'
import {
  bootstrapServers,
  brokerProperties,
  randomClusterId,
  renderProperties,
  type BrokerConfigOptions,
  type BrokerNode
} from './broker-config.js'
import { ensureClassArchives } from './class-archives.js'
import { ClusterSecurity } from './cluster-security.js'
import { clearClusterState, readClusterState, writeClusterState, type ClusterState } from './cluster-state.js'
import { freePorts, isPortFree } from './free-ports.js'
import { KafkaDistribution, defaultCacheDir, type KafkaDistributionOptions } from './kafka-distribution.js'
import { KafkaLocalError } from './kafka-local-error.js'
import { canConnect, waitForMetadata, waitForPort } from './readiness.js'
import { lastLines } from './run-command.js'
import { scramFormatArgs, writeSecurityFiles } from './security-config.js'
import { resolveSecurity, type SecurityOptions } from './security-options.js'
import { formatStorage } from './storage-tool.js'

/** Options of `LocalKafkaCluster.start()`: a run directory plus distribution, broker config and JVM launch options. */
export interface LocalKafkaClusterOptions extends KafkaDistributionOptions, BrokerConfigOptions, BrokerLaunchOptions {
  /** Where configs, data, logs and cluster.json go; created if missing, earlier node dirs are wiped. */
  readonly runDir: string
  /** Number of combined broker+controller nodes; default 1 (use 3 for failover tests). */
  readonly brokers?: number
  /** First of 2 x brokers consecutive ports (client, controller per node); default: free ports. */
  readonly port?: number
  /** Per start or restart; default 120 s. */
  readonly startTimeoutMs?: number
  /** Secure the client listener (TLS, SASL, mTLS, ACLs); default PLAINTEXT. See `SecurityOptions`. */
  readonly security?: SecurityOptions
}

/** The state of one broker, as `status()` reports it. */
export interface BrokerStatus {
  /** KRaft node.id, 1-based (index + 1). */
  readonly nodeId: number
  /** Pid of the broker's JVM (recorded when it was started). */
  readonly pid: number
  /** Client port on 127.0.0.1 (PLAINTEXT or the secured listener). */
  readonly port: number
  /** The recorded pid still runs this broker. */
  readonly running: boolean
  /** The client port accepts TCP connections. */
  readonly reachable: boolean
  /** The broker's log file (stdout and stderr of its JVM). */
  readonly logPath: string
}

/** How `stop()` and `stopBroker()` stop brokers. */
export interface StopOptions {
  /** How long a SIGTERM-ed broker may take before it gets SIGKILL; default 20 s. */
  readonly timeoutMs?: number
  /**
   * SIGKILL at once instead of a clean shutdown: for throwaway data. A clean stop of a 3-node
   * cluster takes ~6 s, because the last Raft leader waits 5 s for a successor that never comes.
   */
  readonly kill?: boolean
}

/**
 * A local cluster whose state lives in its run directory: started here, or attached from another
 * process (`attach`), so one process can start it and another stop it (the `kafka-local` CLI).
 */
export class LocalKafkaCluster {
  /** Absolute run directory: cluster.json, bootstrap.servers, node-<id>/. */
  readonly runDir: string
  #state: ClusterState
  readonly #brokers: BrokerProcess[]
  readonly #launch: BrokerLaunchOptions
  readonly #startTimeoutMs: number
  readonly #security: ClusterSecurity | undefined

  private constructor(runDir: string, state: ClusterState, brokers: BrokerProcess[], launch: BrokerLaunchOptions, startTimeoutMs: number) {
    this.runDir = runDir
    this.#state = state
    this.#brokers = brokers
    this.#launch = launch
    this.#startTimeoutMs = startTimeoutMs
    this.#security = state.security === undefined ? undefined : new ClusterSecurity(state.security, state.bootstrapServers)
  }

  /**
   * Resolves the jars, writes and formats every node, spawns the JVMs (recording their pids at
   * once) and waits until all are ready. ALREADY_RUNNING when runDir's recorded cluster still runs;
   * INVALID_OPTION for security options that cannot work together (before anything is fetched or
   * started); on any failure the brokers it spawned are killed again.
   */
  static async start(options: LocalKafkaClusterOptions): Promise<LocalKafkaCluster> {
    const count = options.brokers ?? 1
    if (!Number.isInteger(count) || count < 1 || count > 9) {
      throw new KafkaLocalError('INVALID_OPTION', `brokers must be an integer from 1 to 9, got ${String(count)}`)
    }
    const runDir = resolve(options.runDir)
    const security = options.security === undefined ? undefined : resolveSecurity(options.security, join(runDir, 'security'))
    const previous = await LocalKafkaCluster.attach(runDir)
    if (previous !== undefined && (await previous.status()).some(b => b.running)) {
      throw new KafkaLocalError(
        'ALREADY_RUNNING',
        `a cluster from ${runDir} is still running at ${previous.bootstrapServers}; stop it first`
      )
    }
    const progress = options.onProgress ?? (() => {})
    const began = Date.now()
    const cacheDir = options.cacheDir ?? defaultCacheDir()
    const distribution = await KafkaDistribution.resolve({ ...options, cacheDir })
    if (options.classDataSharing !== false) await ensureClassArchives(distribution, progress)
    const nodes = await prepareNodes(runDir, count, options.port)
    if (security !== undefined) await writeSecurityFiles(security)
    const clusterId = randomClusterId()
    await Promise.all(
      nodes.map(async node => {
        await mkdir(node.dataDir, { recursive: true })
        await writeFile(node.configPath, renderProperties(brokerProperties(node, nodes, distribution.kafka, options, security)))
      })
    )
    const formatting = Date.now()
    const toolArgs = options.classDataSharing === false ? [] : distribution.classArchiveArgs('tool')
    await Promise.all(
      nodes.map(async node => {
        await formatStorage(distribution, node, clusterId, toolArgs, scramFormatArgs(security))
      })
    )
    progress(`formatted ${count} node(s) in ${Date.now() - formatting} ms (cluster id ${clusterId})`)

    const brokers: BrokerProcess[] = []
    const launch: BrokerLaunchOptions = {
      heap: options.heap,
      jvmArgs: options.jvmArgs,
      logLevel: options.logLevel,
      classDataSharing: options.classDataSharing,
      detached: options.detached
    }
    const startedAt = new Date().toISOString()
    const state = (): ClusterState => ({
      kafkaVersion: distribution.kafka.version,
      clusterId,
      cacheDir,
      javaCommand: distribution.javaCommand,
      bootstrapServers: bootstrapServers(nodes),
      startedAt,
      launch: { heap: launch.heap, jvmArgs: launch.jvmArgs, logLevel: launch.logLevel, classDataSharing: launch.classDataSharing },
      brokers: brokers.map(b => ({ ...b.node, pid: b.pid })),
      ...(security === undefined ? {} : { security })
    })
    const cluster = new LocalKafkaCluster(runDir, state(), brokers, launch, options.startTimeoutMs ?? 120_000)
    try {
      for (const node of nodes) {
        brokers.push(await BrokerProcess.spawn(distribution, node, launch))
        // Recorded at once, so `stop` finds every pid even if this process dies while waiting.
        cluster.#state = state()
        await writeClusterState(runDir, cluster.#state)
      }
      await cluster.#waitUntilReady(brokers)
      progress(`Kafka ${distribution.kafka.version} ready at ${cluster.bootstrapServers} after ${Date.now() - began} ms`)
    } catch (error) {
      await Promise.all(
        brokers.map(async b => {
          await b.kill().catch(() => {})
        })
      )
      await clearClusterState(runDir)
      throw error
    }
    return cluster
  }

  /** The cluster recorded in `runDir` by an earlier start (possibly by another process). */
  static async attach(
    runDir: string,
    options: { startTimeoutMs?: number; detached?: boolean } = {}
  ): Promise<LocalKafkaCluster | undefined> {
    const dir = resolve(runDir)
    const state = await readClusterState(dir)
    if (state === undefined) return undefined
    const brokers = state.brokers.map(record => {
      const { pid, ...node } = record
      return BrokerProcess.attach(node, pid)
    })
    const launch: BrokerLaunchOptions = { ...state.launch, detached: options.detached ?? true }
    return new LocalKafkaCluster(dir, state, brokers, launch, options.startTimeoutMs ?? 120_000)
  }

  /** "127.0.0.1:<port>[,...]", for `bootstrap.servers`. */
  get bootstrapServers(): string {
    return this.#state.bootstrapServers
  }

  /** The Kafka release the brokers run, e.g. "4.1.1". */
  get kafkaVersion(): string {
    return this.#state.kafkaVersion
  }

  /** The KRaft cluster id every node was formatted with. */
  get clusterId(): string {
    return this.#state.clusterId
  }

  /** Number of nodes. */
  get brokerCount(): number {
    return this.#brokers.length
  }

  /** The secured listener's credentials, certificates and files; undefined for a PLAINTEXT cluster. */
  get security(): ClusterSecurity | undefined {
    return this.#security
  }

  /** Node ids and client ports, by index (0-based; node.id is index + 1). */
  get nodes(): readonly BrokerNode[] {
    return this.#brokers.map(b => b.node)
  }

  /** Per broker: whether its recorded pid still runs it and whether its port accepts connections. */
  async status(): Promise<BrokerStatus[]> {
    return await Promise.all(
      this.#brokers.map(async b => ({
        nodeId: b.node.nodeId,
        pid: b.pid,
        port: b.node.port,
        running: await b.isRunning(),
        reachable: await canConnect(b.node.port, 500),
        logPath: b.node.logPath
      }))
    )
  }

  /** SIGTERM every broker at once, SIGKILL what is left after the timeout; forgets the recorded state. */
  async stop(options: StopOptions = {}): Promise<void> {
    await Promise.all(
      this.#brokers.map(async b => {
        await (options.kill === true ? b.kill() : b.stop(options.timeoutMs))
      })
    )
    await clearClusterState(this.runDir)
  }

  /** For a process 'exit' hook: SIGKILL, synchronously, every broker JVM this process spawned. */
  killSpawnedSync(): void {
    for (const b of this.#brokers) b.killChildSync()
  }

  /** SIGKILL one broker (a crash); index is 0-based. */
  async killBroker(index: number): Promise<void> {
    await this.#broker(index).kill()
  }

  /** SIGTERM one broker (a clean shutdown); index is 0-based. */
  async stopBroker(index: number, options: StopOptions = {}): Promise<void> {
    await this.#broker(index).stop(options.timeoutMs)
  }

  /** Starts a stopped or killed broker again on the same ports and data, and waits until it is back. */
  async restartBroker(index: number): Promise<void> {
    const old = this.#broker(index)
    if (await old.isRunning()) throw new KafkaLocalError('ALREADY_RUNNING', `broker ${old.node.nodeId} (pid ${old.pid}) is running`)
    const distribution = await KafkaDistribution.resolve({
      version: this.#state.kafkaVersion,
      cacheDir: this.#state.cacheDir,
      javaCommand: this.#state.javaCommand
    })
    const broker = await BrokerProcess.spawn(distribution, old.node, this.#launch)
    this.#brokers[index] = broker
    this.#state = { ...this.#state, brokers: this.#brokers.map(b => ({ ...b.node, pid: b.pid })) }
    await writeClusterState(this.runDir, this.#state)
    await this.#waitUntilReady([broker])
  }

  /** The last lines of one broker's log (stdout and stderr of its JVM). */
  async logs(index: number, lines = 100): Promise<string> {
    return lastLines(await readFile(this.#broker(index).node.logPath, 'utf8').catch(() => ''), lines)
  }

  async #waitUntilReady(starting: readonly BrokerProcess[]): Promise<void> {
    const deadline = Date.now() + this.#startTimeoutMs
    await Promise.all(
      starting.map(async b => {
        await waitForPort(b.node.port, deadline, {
          isAlive: async () => await b.isRunning(),
          describeFailure: async () =>
            await readFile(b.node.logPath, 'utf8').then(
              t => lastLines(t),
              () => '(no log)'
            )
        })
      })
    )
    const alive: number[] = []
    for (const b of this.#brokers) if (await b.isRunning()) alive.push(b.node.nodeId)
    await waitForMetadata(starting.map(b => `127.0.0.1:${b.node.port}`).join(','), alive, deadline, this.#security?.clientOptions())
  }

  #broker(index: number): BrokerProcess {
    const broker = this.#brokers[index]
    if (broker === undefined) {
      throw new KafkaLocalError('INVALID_OPTION', `broker index ${index} is out of range 0..${this.#brokers.length - 1}`)
    }
    return broker
  }
}

async function prepareNodes(runDir: string, count: number, firstPort: number | undefined): Promise<BrokerNode[]> {
  await mkdir(runDir, { recursive: true })
  for (const entry of await readdir(runDir)) {
    if (entry.startsWith('node-')) await rm(join(runDir, entry), { recursive: true, force: true })
  }
  let ports: number[]
  if (firstPort === undefined) {
    ports = await freePorts(2 * count)
  } else {
    ports = Array.from({ length: 2 * count }, (_, i) => firstPort + i)
    for (const port of ports) {
      if (!(await isPortFree(port))) throw new KafkaLocalError('PORT_IN_USE', `port ${port} on 127.0.0.1 is in use`)
    }
  }
  return Array.from({ length: count }, (_, i) => {
    const dir = join(runDir, `node-${i + 1}`)
    return {
      nodeId: i + 1,
      port: ports[2 * i]!,
      controllerPort: ports[2 * i + 1]!,
      dataDir: join(dir, 'data'),
      configPath: join(dir, 'server.properties'),
      logPath: join(dir, 'broker.log')
    }
  })
}
