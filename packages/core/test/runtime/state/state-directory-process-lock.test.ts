/**
 * The app lock of the state directory against real processes: racers for a stale lock end with
 * exactly one holder, a SIGKILLed holder never blocks the next start, and a lock file naming the
 * new process's own PID (left by an earlier life with the same PID, the usual case after a
 * container restart on a persistent volume) does not block it.
 */
import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StateDirectory } from '../../../src/runtime/state/state-directory.js'

const CHILD = fileURLToPath(new URL('./fixtures/lock-child.ts', import.meta.url))

/** A lock child on `<stateDir>/app`, holding the lock `holdMs` once it has it (-1: until killed). */
class LockChild {
  readonly child: ChildProcess
  readonly exited: Promise<void>
  readonly #lines: string[] = []
  readonly #waiting: Array<() => void> = []

  constructor(stateDir: string, holdMs: number) {
    this.child = spawn(process.execPath, ['--import', 'tsx', '--conditions', '@kstreams/source', CHILD, stateDir, String(holdMs)], {
      stdio: ['pipe', 'pipe', 'inherit']
    })
    let out = ''
    this.child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const parts = out.split('\n')
      out = parts.pop()!
      this.#lines.push(...parts)
      for (const wake of this.#waiting.splice(0)) wake()
    })
    this.exited = new Promise<void>(resolve =>
      this.child.on('exit', () => {
        for (const wake of this.#waiting.splice(0)) wake()
        resolve()
      })
    )
  }

  /** The `n`-th line the child printed (0-based). */
  async line(n: number): Promise<string> {
    while (this.#lines.length <= n) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`lock child exited after ${this.#lines.length} line(s)`)
      await new Promise<void>(resolve => this.#waiting.push(resolve))
    }
    return this.#lines[n]!
  }

  /** Tells the child to take the lock at `goAt` and returns its answer. */
  async lockAt(goAt: number): Promise<string> {
    expect(await this.line(0)).to.equal('READY')
    this.child.stdin!.end(`${goAt}\n`)
    return await this.line(1)
  }
}

/** A lock file as a process that died left it: `.lock` naming `pid`. */
async function staleLock(stateDir: string, pid: number): Promise<void> {
  await mkdir(join(stateDir, 'app'), { recursive: true })
  await writeFile(join(stateDir, 'app', '.lock'), String(pid))
}

describe('StateDirectory app lock, between processes', function () {
  this.timeout(60_000)
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kstreams-sd-proc-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('processes racing for a stale lock: exactly one holds it', async () => {
    await staleLock(root, 999_999_999)
    // Every child is loaded before any tries; they all try at goAt, and the holder keeps the
    // lock long enough that every other one has tried before it lets go.
    const racers = Array.from({ length: 6 }, () => new LockChild(root, 2000))
    for (const r of racers) await r.line(0)
    const goAt = Date.now() + 300
    const answers = await Promise.all(racers.map(async r => await r.lockAt(goAt)))
    await Promise.all(
      racers.map(async r => {
        await r.exited
      })
    )
    expect(
      answers.filter(a => a.startsWith('LOCKED')),
      answers.join(', ')
    ).to.have.length(1)
    expect(answers.filter(a => a === 'REFUSED STATE_DIR_LOCKED')).to.have.length(5)
  })

  it('a SIGKILLed holder never blocks the next start, even with its PID left in the lock file', async () => {
    const holder = new LockChild(root, -1)
    expect(await holder.lockAt(0)).to.match(/^LOCKED \d+$/)
    const second = new StateDirectory(root, 'app')
    const refused = await second.lock().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(refused).to.have.property('code', 'STATE_DIR_LOCKED')
    holder.child.kill('SIGKILL')
    await holder.exited
    await second.lock()
    await second.unlock()
  })

  it('a lock file naming this process (an earlier life with the same PID) does not block it', async () => {
    await staleLock(root, process.pid)
    const dir = new StateDirectory(root, 'app')
    await dir.lock()
    await dir.unlock()
  })

  it('a lock file naming a live process that does not hold the lock does not block it', async () => {
    await staleLock(root, process.ppid)
    const dir = new StateDirectory(root, 'app')
    await dir.lock()
    await dir.unlock()
  })
})
