/**
 * One contender process of `bench:java`, Java (KStreamsBench.java) or Node (vs-java-worker.ts),
 * seen through the line protocol both speak: messages "BENCH {json}" on its stdout (each kept
 * with the time it arrived), commands on its stdin; every other output line goes to the bench's
 * stderr with a prefix. Also reads a process's CPU time from /proc (Linux), which is how the bench
 * measures the CPU of either kind of process the same way.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { ChildInbox } from './child-inbox.js'

/** A message from the child, with performance.now() when it arrived. */
export interface ChildMessage {
  readonly type: string
  readonly at: number
  readonly [field: string]: unknown
}

export class ContenderProcess {
  readonly #child: ChildProcessWithoutNullStreams
  readonly #inbox: ChildInbox<ChildMessage>
  readonly #exit: Promise<void>

  constructor(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; prefix: string }) {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] })
    this.#child = child
    const inbox = new ChildInbox<ChildMessage>('contender', () => child.exitCode !== null)
    this.#inbox = inbox
    const passOn = (line: string): void => {
      if (line.trim() !== '') process.stderr.write(`${options.prefix} ${line}\n`)
    }
    createInterface({ input: child.stdout }).on('line', line => {
      if (!line.startsWith('BENCH ')) {
        passOn(line)
        return
      }
      const at = performance.now()
      let message: ChildMessage
      try {
        message = { ...(JSON.parse(line.slice(6)) as { type: string }), at }
      } catch {
        passOn(line)
        return
      }
      if (message.type === 'failed') inbox.fail(new Error(`contender failed: ${String(message.message)}`))
      else inbox.push(message)
    })
    createInterface({ input: child.stderr }).on('line', passOn)
    child.stdin.on('error', () => undefined)
    this.#exit = new Promise(resolve => {
      child.on('exit', (code, signal) => {
        inbox.fail(code !== 0 ? new Error(`contender exited with ${signal ?? `code ${String(code)}`}`) : undefined)
        resolve()
      })
      child.on('error', error => {
        inbox.fail(error)
        resolve()
      })
    })
  }

  get pid(): number {
    return this.#child.pid ?? -1
  }

  send(command: 'start' | 'stop'): void {
    this.#child.stdin.write(`${command}\n`)
  }

  /** The first message of this type so far (not consumed). */
  find(type: string): ChildMessage | undefined {
    return this.#inbox.find(type)
  }

  /** Waits for a message of this type (not consumed); throws if the child failed or exited first. */
  async waitFor(type: string, timeoutMs: number): Promise<ChildMessage> {
    return await this.#inbox.waitFor(type, timeoutMs)
  }

  /** Sleeps (woken early by a message or the exit); throws if the child failed. */
  async sleepOrFail(ms: number): Promise<void> {
    await this.#inbox.sleepOrFail(ms)
  }

  async exited(): Promise<void> {
    await this.#exit
  }

  /** SIGKILL, if it still runs. */
  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL')
  }
}

let clockTicks: number | undefined

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from /proc/<pid>/stat;
 * NaN where there is no /proc. Resolution: one clock tick (10 ms).
 */
export function processCpuMs(pid: number): number {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return Number.NaN
  }
  // Fields after "pid (comm) ": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  clockTicks ??= readClockTicks()
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks
}

function readClockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    return ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
}

/**
 * CPU time the whole machine has used so far (all cores: user, nice, system, irq, softirq, steal),
 * in ms, from /proc/stat; NaN where there is no /proc. Over a run: the contender, the broker, this
 * bench and anything else running.
 */
export function machineCpuMs(): number {
  let stat: string
  try {
    stat = readFileSync('/proc/stat', 'utf8')
  } catch {
    return Number.NaN
  }
  const fields = stat.slice(0, stat.indexOf('\n')).trim().split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal guest guest_nice
  const busy = fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]! + fields[7]!
  clockTicks ??= readClockTicks()
  return (busy * 1000) / clockTicks
}
