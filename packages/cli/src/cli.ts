/**
 * The `kstreams` command: dispatches to a command, prints `--help` texts and `--version`, and
 * turns errors into messages and exit codes (EXIT_CODES): a UsageError prints the message and a
 * pointer to the command's help (2), a CliError or another StreamsError its code and message (1).
 */
import { StreamsError } from '@kstreams/core'
import { readFileSync } from 'node:fs'
import { CliError, EXIT_CODES, UsageError } from './cli-error.js'
import { DESCRIBE, runDescribe } from './describe-command.js'
import { helpText, type CommandSpec } from './options.js'
import { streamOutput, type Output } from './output.js'
import { QUERY, runQuery } from './query-command.js'
import { RESET, runReset } from './reset/reset-command.js'
import { STATE, runState } from './state-command.js'

/** Something text is written to: a stream such as process.stdout, or a collector. */
export interface TextSink {
  /** Writes `text` as it is. */
  write(text: string): unknown
}

/** Where `runCli` writes and what it resolves relative paths against. */
export interface CliEnvironment {
  /** The standard output (default: process.stdout). */
  readonly stdout?: TextSink
  /** The standard error (default: process.stderr). */
  readonly stderr?: TextSink
  /** The working directory (default: process.cwd()). */
  readonly cwd?: string
}

const COMMANDS: ReadonlyArray<{ spec: CommandSpec; line: string }> = [
  { spec: RESET, line: "Reset an application to reprocess its input (Kafka's kafka-streams-application-reset)" },
  { spec: DESCRIBE, line: "Print the topology an ES module exports (Kafka's describe() text, Mermaid, HTML)" },
  { spec: STATE, line: 'List the task directories, stores and checkpoints of a state directory (and changelog lag)' },
  { spec: QUERY, line: "Ask a running application's interactive-query HTTP endpoint for a key" }
]

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map(c => c.spec.name.length)) + 2
  return [
    'Usage: kstreams <command> [options]',
    '',
    'The kstreams command line (Kafka Streams for TypeScript).',
    '',
    'Commands:',
    ...COMMANDS.map(c => `  ${c.spec.name.padEnd(width)}${c.line}`),
    '',
    'Options:',
    '  -h, --help     Print this help, or with a command its help (kstreams reset --help).',
    '  -v, --version  Print the version.',
    '',
    'Exit codes: 0 success, 1 failure, 2 invalid usage, 3 not found (query).',
    ''
  ].join('\n')
}

/** The version of @kstreams/cli (from its package.json, found above this file in src/ or dist/src/). */
export function cliVersion(): string {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === '@kstreams/cli' && pkg.version !== undefined) return pkg.version
    } catch {}
  }
  return 'unknown'
}

/** Runs `kstreams` with `argv` (without node and the script); resolves with the exit code. Never throws. */
export async function runCli(argv: readonly string[], env: CliEnvironment = {}): Promise<number> {
  const out = streamOutput(env.stdout ?? process.stdout)
  const err = streamOutput(env.stderr ?? process.stderr)
  const [command, ...args] = argv
  try {
    return await dispatch(command, args, out, err, env.cwd ?? process.cwd())
  } catch (error) {
    return report(error, err)
  }
}

async function dispatch(command: string | undefined, args: readonly string[], out: Output, err: Output, cwd: string): Promise<number> {
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    const topic = command === 'help' ? COMMANDS.find(c => c.spec.name === args[0]) : undefined
    out.write(topic === undefined ? mainHelp() : helpText(topic.spec))
    return command === undefined ? EXIT_CODES.USAGE : EXIT_CODES.OK
  }
  if (command === '-v' || command === '--version') {
    out.line(cliVersion())
    return EXIT_CODES.OK
  }
  const found = COMMANDS.find(c => c.spec.name === command)
  if (found === undefined) throw new UsageError('', `unknown command '${command}' (commands: ${COMMANDS.map(c => c.spec.name).join(', ')})`)
  let result: number | 'help'
  switch (found.spec.name) {
    case 'reset':
      result = await runReset(args, out, err, cwd)
      break
    case 'describe':
      result = await runDescribe(args, out, cwd)
      break
    case 'state':
      result = await runState(args, out, err, cwd)
      break
    default:
      result = await runQuery(args, out, err)
  }
  if (result === 'help') {
    out.write(helpText(found.spec))
    return EXIT_CODES.OK
  }
  return result
}

function report(error: unknown, err: Output): number {
  if (error instanceof UsageError) {
    err.line(`kstreams${error.command === '' ? '' : ` ${error.command}`}: ${error.message}`)
    err.line(`Run 'kstreams${error.command === '' ? '' : ` ${error.command}`} --help' for usage.`)
    return error.exitCode
  }
  if (error instanceof CliError) {
    err.line(`ERROR [${error.code}]: ${error.message}`)
    return error.exitCode
  }
  if (error instanceof StreamsError) {
    const name = (error as { errorName?: unknown }).errorName
    err.line(`ERROR [${typeof name === 'string' ? name : error.code}]: ${error.message}`)
    return EXIT_CODES.FAILED
  }
  err.line(`ERROR: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  return EXIT_CODES.FAILED
}
