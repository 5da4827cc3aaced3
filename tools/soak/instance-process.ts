/**
 * The soak's side of one instance process (instance.ts): forks it (with --expose-gc, its output
 * appended to a log file), hands each message to the caller, and ends it by a clean stop or a
 * SIGKILL. An exit nobody asked for is reported as a failure.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import type { ChildMessage, InstanceSpec, ParentMessage } from './protocol.js'

const CHILD = new URL(`./instance${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
const EXEC_ARGV = ['--conditions=@kstreams/source', '--import', 'tsx', '--expose-gc']

export interface InstanceListener {
  onMessage(message: ChildMessage): void
  /** The process ended without being stopped or killed. */
  onUnexpectedExit(description: string): void
}

export class InstanceProcess {
  readonly #child: ChildProcess
  readonly #exit: Promise<string>
  #ending = false
  #started = false

  private constructor(child: ChildProcess, listener: InstanceListener) {
    this.#child = child
    this.#exit = new Promise(resolve => {
      child.once('exit', (code, signal) => {
        const description = signal === null ? `exit code ${code}` : `signal ${signal}`
        if (!this.#ending) listener.onUnexpectedExit(description)
        resolve(description)
      })
    })
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'started') this.#started = true
      listener.onMessage(message)
    })
  }

  /** Forks an instance process; its stdout and stderr go to `logPath` (appended). */
  static start(spec: InstanceSpec, logPath: string, listener: InstanceListener): InstanceProcess {
    const log = openSync(logPath, 'a')
    try {
      const child = fork(CHILD, [JSON.stringify(spec)], { execArgv: EXEC_ARGV, stdio: ['ignore', log, log, 'ipc'] })
      return new InstanceProcess(child, listener)
    } finally {
      closeSync(log)
    }
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  /** True once the instance said its KafkaStreams started. */
  get started(): boolean {
    return this.#started
  }

  /** Asks for a clean close, leaving the group, and waits for the exit; SIGKILLs it and throws after `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    this.#ending = true
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return
    this.#child.send({ type: 'stop', leaveGroup: true } satisfies ParentMessage)
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>(resolve => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    })
    const result = await Promise.race([this.#exit, timedOut])
    clearTimeout(timer)
    if (result === 'timeout') {
      await this.kill()
      throw new Error(`instance pid ${this.pid} did not close within ${timeoutMs / 1000} s (killed)`)
    }
    if (result !== 'exit code 0') throw new Error(`instance pid ${this.pid} closed with ${result}`)
  }

  /** SIGKILL, then waits for the exit. */
  async kill(): Promise<void> {
    this.#ending = true
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL')
    await this.#exit
  }
}
