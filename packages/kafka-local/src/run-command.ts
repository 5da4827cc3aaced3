/**
 * Runs a short-lived command (Maven, Kafka's StorageTool) to completion without a shell and
 * collects its combined output, so a failure can be reported with the tool's own words.
 */
import { spawn } from 'node:child_process'

/** How a command ended, with its output. */
export interface CommandResult {
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  /** stdout and stderr interleaved, capped at the last `maxOutputChars` characters. */
  readonly output: string
}

/** Environment, working directory and output cap of `runCommand`. */
export interface RunCommandOptions {
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  readonly maxOutputChars?: number
}

/** Resolves with the result of a finished command; rejects only when it cannot be started (ENOENT ...). */
export async function runCommand(command: string, args: readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  const max = options.maxOutputChars ?? 20_000
  return await new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8')
      if (output.length > 2 * max) output = output.slice(-max)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.once('error', reject)
    child.once('close', (exitCode, signal) => {
      resolve({ exitCode, signal, output: output.slice(-max) })
    })
  })
}

/** The last `lines` lines of a text, for error messages. */
export function lastLines(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n')
}
