/**
 * One broker JVM: started with `java -cp <libs>/* kafka.Kafka <server.properties>` (no shell, so
 * the pid is the JVM's), or re-attached from a pid recorded by an earlier process. Every signal
 * is sent only after checking that the pid still runs *our* command line (it contains this
 * node's config path), so a recycled pid is never touched.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import type { BrokerNode } from './broker-config.js'
import type { KafkaDistribution } from './kafka-distribution.js'
import { KafkaLocalError } from './kafka-local-error.js'
import type { BrokerLogLevel } from './logging-config.js'

const DEFAULT_JVM_ARGS = [
  '-XX:+UseG1GC',
  '-XX:MaxGCPauseMillis=20',
  '-XX:InitiatingHeapOccupancyPercent=35',
  '-XX:+ExplicitGCInvokesConcurrent',
  '-Djava.awt.headless=true'
]

/** How a broker JVM is started. */
export interface BrokerLaunchOptions {
  /** -Xmx of each broker; default "512m". */
  readonly heap?: string
  /** Extra JVM flags, appended after the defaults. */
  readonly jvmArgs?: readonly string[]
  /** Use the broker class-data archive when it exists; default true. */
  readonly classDataSharing?: boolean
  /** Root log level of the broker's log; default WARN (plus the "Kafka Server started" line). */
  readonly logLevel?: BrokerLogLevel
  /** Own process group, not killed with the starter (the CLI's brokers outlive it). */
  readonly detached?: boolean
}

/** One broker JVM, spawned by this process or attached by its recorded pid. */
export class BrokerProcess {
  readonly node: BrokerNode
  readonly pid: number
  readonly #child: ChildProcess | undefined
  readonly #exited: Promise<number | null> | undefined
  #exitCode: number | null | undefined

  private constructor(node: BrokerNode, pid: number, child?: ChildProcess, exited?: Promise<number | null>) {
    this.node = node
    this.pid = pid
    this.#child = child
    this.#exited = exited?.then(code => {
      this.#exitCode = code
      return code
    })
  }

  static async spawn(distribution: KafkaDistribution, node: BrokerNode, options: BrokerLaunchOptions = {}): Promise<BrokerProcess> {
    const args = [
      `-Xmx${options.heap ?? '512m'}`,
      ...DEFAULT_JVM_ARGS,
      ...(options.classDataSharing === false ? [] : distribution.classArchiveArgs('broker')),
      ...(options.jvmArgs ?? []),
      ...distribution.loggingJvmArgs(options.logLevel),
      '-cp',
      distribution.classpath,
      'kafka.Kafka',
      node.configPath
    ]
    const log = await open(node.logPath, 'a')
    try {
      const child = spawn(distribution.javaCommand, args, { stdio: ['ignore', log.fd, log.fd], detached: options.detached ?? false })
      const exited = new Promise<number | null>(resolve => child.once('exit', resolve))
      const pid = await new Promise<number>((resolve, reject) => {
        child.once('error', error => {
          reject(
            new KafkaLocalError(
              'JAVA_NOT_FOUND',
              `cannot start "${distribution.javaCommand}": install Java 17 or newer, or point JAVA_HOME or the javaCommand option at it`,
              {
                cause: error
              }
            )
          )
        })
        child.once('spawn', () => {
          resolve(child.pid!)
        })
      })
      if (options.detached === true) child.unref()
      return new BrokerProcess(node, pid, child, exited)
    } finally {
      await log.close()
    }
  }

  /** A broker started by another process, known by its recorded pid. */
  static attach(node: BrokerNode, pid: number): BrokerProcess {
    return new BrokerProcess(node, pid)
  }

  /** Exit code when this process started the JVM and it has exited. */
  get exitCode(): number | null | undefined {
    return this.#exitCode
  }

  /** True while the pid is alive and runs this node's broker. */
  async isRunning(): Promise<boolean> {
    if (this.#child !== undefined && this.#exitCode !== undefined) return false
    const command = await commandLineOf(this.pid)
    return command !== undefined && command.includes('kafka.Kafka') && command.includes(this.node.configPath)
  }

  /** SIGTERM (clean shutdown), then SIGKILL if it is still running after `timeoutMs`. */
  async stop(timeoutMs = 20_000): Promise<void> {
    if (!(await this.#signal('SIGTERM'))) return
    if (await this.#waitForExit(timeoutMs)) return
    await this.kill()
  }

  /** SIGKILL (a crash), and wait until the process is gone. */
  async kill(): Promise<void> {
    if (!(await this.#signal('SIGKILL'))) return
    if (!(await this.#waitForExit(10_000))) {
      throw new KafkaLocalError('BROKER_EXITED', `broker ${this.node.nodeId} (pid ${this.pid}) survived SIGKILL`)
    }
  }

  /**
   * For a process 'exit' hook: SIGKILL, synchronously, a JVM this process spawned and that has not
   * exited yet (its pid cannot have been reused). Does nothing for attached brokers.
   */
  killChildSync(): void {
    if (this.#child === undefined || this.#exitCode !== undefined) return
    try {
      process.kill(this.pid, 'SIGKILL')
    } catch {}
  }

  async #signal(signal: NodeJS.Signals): Promise<boolean> {
    if (!(await this.isRunning())) return false
    try {
      process.kill(this.pid, signal)
      return true
    } catch {
      return false
    }
  }

  async #waitForExit(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs
    if (this.#exited !== undefined) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<false>(resolve => {
        timer = setTimeout(() => {
          resolve(false)
        }, timeoutMs)
      })
      const result = await Promise.race([this.#exited.then(() => true), timeout])
      clearTimeout(timer)
      return result
    }
    while (Date.now() < deadline) {
      if (!(await this.isRunning())) return true
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    return !(await this.isRunning())
  }
}

const execFileAsync = promisify(execFile)
const HAS_PROC = existsSync('/proc/self/cmdline')

/** The command line of a live process, undefined when there is none (zombies count as gone). */
export async function commandLineOf(pid: number): Promise<string | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  if (HAS_PROC) {
    try {
      const raw = await readFile(`/proc/${pid}/cmdline`)
      return raw.length === 0 ? undefined : raw.toString('utf8').split('\0').join(' ')
    } catch {
      return undefined
    }
  }
  try {
    const { stdout } = await execFileAsync('ps', ['-o', 'command=', '-p', String(pid)])
    const command = stdout.trim()
    return command === '' || command.includes('<defunct>') ? undefined : command
  } catch {
    return undefined
  }
}
