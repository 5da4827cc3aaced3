/**
 * The options of each command, declared once: node:util's parseArgs config and the `--help`
 * text both come from the same list. Unknown options, missing values and missing positional
 * arguments are UsageErrors naming them. @internal
 */
import { parseArgs } from 'node:util'
import { UsageError } from './cli-error.js'

/** One option of a command. */
export interface OptionSpec {
  readonly name: string
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** The value's placeholder in the help text (`<id>`). */
  readonly value?: string
  readonly description: string
  /** Comma-separated lists may also be given by repeating the option. */
  readonly list?: boolean
}

/** A command's usage, options and help text. */
export interface CommandSpec {
  readonly name: string
  readonly usage: string
  readonly summary: string
  readonly options: readonly OptionSpec[]
  /** Text after the option list. */
  readonly notes?: string
  /** Names of the positional arguments, all required. */
  readonly positionals: readonly string[]
}

const HELP: OptionSpec = { name: 'help', short: 'h', type: 'boolean', description: 'Print this help and exit.' }

/** What parse() found: the options by name (lists split on commas), the positional arguments, or that help was asked for. */
export interface ParsedArgs {
  readonly help: boolean
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>
  readonly positionals: readonly string[]
}

export function parse(spec: CommandSpec, args: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    [...spec.options, HELP].map(o => [
      o.name,
      { type: o.type, ...(o.short === undefined ? {} : { short: o.short }), ...(o.list === true ? { multiple: true } : {}) }
    ])
  )
  // `--shift-by -2`, as Kafka's tools take it: a negative number is the option's value, not an option.
  const stringOptions = new Set(spec.options.filter(o => o.type === 'string').map(o => `--${o.name}`))
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const next = args[i + 1]
    if (stringOptions.has(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`)
      i++
    } else joined.push(arg)
  }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: joined, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(spec.name, (error as Error).message.replace(/\. To specify a positional argument.*$/s, ''))
  }
  const values: Record<string, string | boolean | string[] | undefined> = {}
  for (const o of spec.options) {
    const value = parsed.values[o.name]
    values[o.name] =
      o.list === true && Array.isArray(value)
        ? value
            .flatMap(v => String(v).split(','))
            .map(v => v.trim())
            .filter(v => v !== '')
        : (value as string | boolean | undefined)
  }
  const help = parsed.values.help === true
  if (!help) {
    if (parsed.positionals.length < spec.positionals.length)
      throw new UsageError(spec.name, `missing argument <${spec.positionals[parsed.positionals.length]}>`)
    if (parsed.positionals.length > spec.positionals.length)
      throw new UsageError(spec.name, `unexpected argument '${parsed.positionals[spec.positionals.length]}'`)
  }
  return { help, values, positionals: parsed.positionals }
}

/** The `--help` text of a command. */
export function helpText(spec: CommandSpec): string {
  const rows = [...spec.options, HELP].map(o => {
    const flag = `${o.short === undefined ? '    ' : `-${o.short}, `}--${o.name}${o.value === undefined ? '' : ` ${o.value}`}`
    return [flag, o.description] as const
  })
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  const lines = rows.map(
    ([flag, description]) => `  ${flag.padEnd(width)}${wrap(description, 100 - width - 2).join(`\n${' '.repeat(width + 2)}`)}`
  )
  return [
    `Usage: ${spec.usage}`,
    '',
    spec.summary,
    '',
    'Options:',
    ...lines,
    ...(spec.notes === undefined ? [] : ['', spec.notes]),
    ''
  ].join('\n')
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  lines.push(line)
  return lines
}

/** A string option's value, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name]
  return typeof value === 'string' ? value : undefined
}

/** A list option's values (empty when not given). */
export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name]
  return Array.isArray(value) ? value : []
}

/** An integer option's value (a UsageError naming the option when it is not an integer), or undefined. */
export function integerOption(args: ParsedArgs, command: string, name: string): number | undefined {
  const raw = stringOption(args, name)
  if (raw === undefined) return undefined
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(command, `--${name} needs an integer, got '${raw}'`)
  return Number(raw)
}
