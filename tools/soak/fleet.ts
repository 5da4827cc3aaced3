/**
 * The instances of a soak run (A and B), each on its own state directory whatever its restarts:
 * starts them, restarts one (a clean close, or a SIGKILL, then a new process on the same state
 * directory), and keeps what they report: the samples, stamped with the time since the run
 * started and the life they belong to, their lives, and the events (starts, closes, kills, state
 * changes) for the log. The first failure of an instance (it reported one, or exited unasked)
 * is kept; `throwIfFailed` raises it.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { InstanceProcess } from './instance-process.js'
import type { ChildMessage, InstanceSpec } from './protocol.js'
import type { InstanceSample, Life } from './verdict.js'

const CLOSE_TIMEOUT_MS = 120_000

export interface FleetEvent {
  readonly atMs: number
  readonly instance: string
  readonly life: number
  readonly event: string
}

interface Current {
  readonly process: InstanceProcess
  readonly life: number
  readonly startMs: number
}

export class Fleet {
  readonly samples: InstanceSample[] = []
  readonly events: FleetEvent[] = []
  readonly #lives: Life[] = []
  readonly #current = new Map<string, Current>()
  readonly #specs: Map<string, InstanceSpec>
  readonly #outDir: string
  readonly #startedAt = performance.now()
  #failure: Error | undefined

  /** One spec per instance (its name is the key); logs go to `<outDir>/instance-<name>.log`. */
  constructor(specs: readonly InstanceSpec[], outDir: string) {
    this.#specs = new Map(specs.map(spec => [spec.name, spec]))
    this.#outDir = outDir
  }

  /** Milliseconds since the fleet was made (the run's clock). */
  now(): number {
    return performance.now() - this.#startedAt
  }

  startAll(): void {
    for (const name of this.#specs.keys()) this.#start(name, 1)
  }

  /** True once every running instance said it started. */
  get allStarted(): boolean {
    return [...this.#current.values()].every(c => c.process.started)
  }

  /** Ends the instance's current process (cleanly or by SIGKILL) and starts the next on its state directory. */
  async restart(name: string, kill: boolean): Promise<void> {
    const ended = await this.#end(name, kill)
    this.#start(name, ended + 1)
  }

  /** Closes every instance cleanly. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#current.keys()].map(name => this.#end(name, false)))
  }

  /** Kills whatever still runs (after a failure). */
  async killAll(): Promise<void> {
    await Promise.all([...this.#current.values()].map(c => c.process.kill()))
    this.#current.clear()
  }

  /** The lives so far; those that ended after `inputEndMs` (or still run) end there. */
  lives(inputEndMs: number): Life[] {
    const running = [...this.#current].map(
      ([instance, c]): Life => ({ instance, life: c.life, startMs: c.startMs, endMs: inputEndMs, ending: 'running' })
    )
    return [...this.#lives, ...running]
      .map(life => (life.endMs > inputEndMs ? { ...life, endMs: inputEndMs, ending: 'running' as const } : life))
      .sort((a, b) => a.startMs - b.startMs)
  }

  throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure
  }

  #start(name: string, life: number): void {
    const spec = this.#specs.get(name)!
    const logPath = join(this.#outDir, `instance-${name}.log`)
    appendFileSync(logPath, `\n--- ${name}${life} starting at ${(this.now() / 1000).toFixed(1)} s ---\n`)
    const process = InstanceProcess.start(spec, logPath, {
      onMessage: message => {
        this.#onMessage(name, life, message)
      },
      onUnexpectedExit: description => {
        this.#fail(name, life, `exited unasked (${description}); see ${logPath}`)
      }
    })
    this.#current.set(name, { process, life, startMs: this.now() })
    this.#event(name, life, `start pid ${process.pid}`)
  }

  /** Ends the current process of `name`; returns its life number. */
  async #end(name: string, kill: boolean): Promise<number> {
    const current = this.#current.get(name)!
    this.#current.delete(name)
    this.#event(name, current.life, kill ? 'kill' : 'close')
    if (kill) await current.process.kill()
    else await current.process.stop(CLOSE_TIMEOUT_MS)
    this.#lives.push({
      instance: name,
      life: current.life,
      startMs: current.startMs,
      endMs: this.now(),
      ending: kill ? 'killed' : 'closed'
    })
    this.#event(name, current.life, kill ? 'killed' : 'closed')
    return current.life
  }

  #onMessage(name: string, life: number, message: ChildMessage): void {
    switch (message.type) {
      case 'sample':
        this.samples.push({ ...message.sample, atMs: this.now(), instance: name, life })
        break
      case 'state':
        this.#event(name, life, `${message.from} -> ${message.to}`)
        break
      case 'failed':
        this.#fail(name, life, message.message)
        break
      default:
        this.#event(name, life, message.type)
    }
  }

  #fail(name: string, life: number, message: string): void {
    this.#event(name, life, `FAILED ${message}`)
    this.#failure ??= new Error(`instance ${name}${life} failed: ${message}`)
  }

  #event(instance: string, life: number, event: string): void {
    this.events.push({ atMs: this.now(), instance, life, event })
  }
}
