/**
 * A strict reader of Java properties files, as `java.util.Properties.load(InputStream)` reads
 * them (the way Kafka's tools read `--command-config`): ISO-8859-1 text; comment lines starting
 * with `#` or `!`; `key=value`, `key: value` and `key value`; a line ending in an odd number of
 * backslashes continues on the next one (whose leading white space is dropped); the escapes `\t`,
 * `\n`, `\r`, `\f`, `\uXXXX`, and a backslash before any other character standing for that
 * character. Values are kept as Java keeps them (trailing white space included).
 *
 * Stricter than Java where Java would silently do something else than meant: an empty key, a key
 * given twice, a malformed `\u` escape, and a non-ASCII byte outside comments (Java would read a
 * UTF-8 file as Latin-1 and so see other characters than the file shows) are errors naming the
 * line, never echoing the value. @internal
 */
import { CommandConfigError } from './command-config-error.js'

/** One `key=value` of a properties file. */
export interface PropertyEntry {
  readonly key: string
  readonly value: string
  /** The line (1-based) the entry starts on. */
  readonly line: number
}

const WHITE_SPACE = new Set([' ', '\t', '\f'])

/** The entries of properties-file `text` (decoded as ISO-8859-1, as Java does), in file order. `source` names the file in errors. */
export function parseJavaProperties(text: string, source: string): PropertyEntry[] {
  const entries: PropertyEntry[] = []
  const seen = new Map<string, number>()
  for (const { text: logical, line } of logicalLines(text)) {
    const fail = (message: string): never => {
      throw new CommandConfigError(`${source} line ${line}: ${message}`)
    }
    const nonAscii = logical.search(/[\u0080-\uffff]/)
    if (nonAscii >= 0)
      fail('a non-ASCII character: Java reads properties files as ISO-8859-1, so it would not see what the file shows; write it as \\uXXXX')
    const { keyEnd, valueStart } = splitKeyValue(logical)
    const key = decodeEscapes(logical.slice(0, keyEnd), fail)
    if (key === '') fail('an entry without a key')
    const value = decodeEscapes(logical.slice(valueStart), fail)
    const earlier = seen.get(key)
    if (earlier !== undefined)
      throw new CommandConfigError(`${source} line ${line}: ${key} is set again (first on line ${earlier}); keep one`, { key })
    seen.set(key, line)
    entries.push({ key, value, line })
  }
  return entries
}

/** The logical lines of `text`: comments and blank lines dropped, continuation lines joined. */
function logicalLines(text: string): Array<{ text: string; line: number }> {
  const natural = text.split(/\r\n|\r|\n/)
  const out: Array<{ text: string; line: number }> = []
  for (let i = 0; i < natural.length; i++) {
    const line = i + 1
    let current = skipWhiteSpace(natural[i]!)
    if (current === '' || current[0] === '#' || current[0] === '!') continue
    while (trailingBackslashes(current) % 2 === 1) {
      current = current.slice(0, -1)
      if (i + 1 >= natural.length) break
      current += skipWhiteSpace(natural[++i]!)
    }
    out.push({ text: current, line })
  }
  return out
}

function skipWhiteSpace(text: string): string {
  let i = 0
  while (i < text.length && WHITE_SPACE.has(text[i]!)) i++
  return text.slice(i)
}

function trailingBackslashes(text: string): number {
  let n = 0
  while (n < text.length && text[text.length - 1 - n] === '\\') n++
  return n
}

/** Where the (still escaped) key ends and the value starts, as Properties.load splits a line. */
function splitKeyValue(line: string): { keyEnd: number; valueStart: number } {
  let keyEnd = 0
  let valueStart = line.length
  let hasSeparator = false
  let escaped = false
  for (; keyEnd < line.length; keyEnd++) {
    const c = line[keyEnd]!
    if (!escaped && (c === '=' || c === ':')) {
      valueStart = keyEnd + 1
      hasSeparator = true
      break
    }
    if (!escaped && WHITE_SPACE.has(c)) {
      valueStart = keyEnd + 1
      break
    }
    escaped = c === '\\' ? !escaped : false
  }
  while (valueStart < line.length) {
    const c = line[valueStart]!
    if (!WHITE_SPACE.has(c)) {
      if (hasSeparator || (c !== '=' && c !== ':')) break
      hasSeparator = true
    }
    valueStart++
  }
  return { keyEnd, valueStart }
}

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f' }

function decodeEscapes(text: string, fail: (message: string) => never): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c !== '\\') {
      out += c
      continue
    }
    const next = text[++i]
    if (next === undefined) break
    if (next === 'u') {
      const hex = text.slice(i + 1, i + 5)
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('a malformed \\uXXXX escape (four hexadecimal digits expected)')
      out += String.fromCharCode(Number.parseInt(hex, 16))
      i += 4
    } else out += ESCAPES[next] ?? next
  }
  return out
}
