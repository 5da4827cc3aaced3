/**
 * Test helper: a harmless Node process whose command line looks like a broker's
 * (`... kafka.Kafka <configPath>`), so pid checks and signals can be tested without Java.
 */
import { spawn, type ChildProcess } from 'node:child_process'

export interface FakeBroker {
  readonly child: ChildProcess
  readonly pid: number
  readonly exited: Promise<NodeJS.Signals | null>
}

export async function spawnFakeBroker(...args: string[]): Promise<FakeBroker> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ...args], { stdio: 'ignore' })
  const exited = new Promise<NodeJS.Signals | null>(resolve =>
    child.once('exit', (_code, signal) => {
      resolve(signal)
    })
  )
  await new Promise(resolve => child.once('spawn', resolve))
  return { child, pid: child.pid!, exited }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
