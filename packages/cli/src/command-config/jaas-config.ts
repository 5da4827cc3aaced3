/**
 * A strict reader of Kafka's `sasl.jaas.config` value, the syntax Kafka's JaasConfig reads
 * (with Java's StreamTokenizer):
 * `<login module class> <flag> (<option>=<value>)* ;`. The flag is `required`, `requisite`,
 * `sufficient` or `optional` (any case); a value is a word (`[A-Za-z_$][A-Za-z0-9_.$-]*`) or a
 * string in double or single quotes, where `\n`, `\t`, `\r`, `\f`, `\b`, `\a`, `\v`, octal
 * `\ooo` and `\<any other character>` are escapes; `//` and `/* ... *\/` are comments. A client
 * has exactly one login module. Errors name the position and the option, never a value (a
 * password is one). @internal
 */

/** The one login module of a client's `sasl.jaas.config`. */
export interface JaasEntry {
  /** The login module's class, e.g. `org.apache.kafka.common.security.scram.ScramLoginModule`. */
  readonly loginModule: string
  /** `required`, `requisite`, `sufficient` or `optional`, lower-cased. */
  readonly flag: string
  /** The options in the order given. */
  readonly options: ReadonlyMap<string, string>
}

/** A `sasl.jaas.config` that does not parse; the message names the position, not the text. */
export class JaasSyntaxError extends Error {}

const FLAGS = new Set(['required', 'requisite', 'sufficient', 'optional'])

type Token =
  | { kind: 'word' | 'quoted'; text: string; at: number }
  | { kind: 'symbol'; text: string; at: number }
  | { kind: 'end'; at: number }

/** The login module `text` configures. Throws JaasSyntaxError. */
export function parseJaasConfig(text: string): JaasEntry {
  const tokens = new Tokenizer(text)
  const fail = (message: string, at: number): never => {
    throw new JaasSyntaxError(`${message} (at character ${at + 1})`)
  }
  const first = tokens.next()
  if (first.kind === 'end') throw new JaasSyntaxError('no login module (expected `<LoginModule class> required <option>="<value>" ... ;`)')
  if (first.kind !== 'word') return fail('expected the login module class', first.at)
  const flagToken = tokens.next()
  if (flagToken.kind !== 'word' || !FLAGS.has(flagToken.text.toLowerCase()))
    return fail('expected the control flag (required, requisite, sufficient or optional) after the login module class', flagToken.at)
  const options = new Map<string, string>()
  for (;;) {
    const token = tokens.next()
    if (token.kind === 'symbol' && token.text === ';') break
    if (token.kind === 'end') return fail('the login module is not ended by a semicolon', token.at)
    if (token.kind !== 'word') return fail('expected an option name or the closing semicolon', token.at)
    const equals = tokens.next()
    if (equals.kind !== 'symbol' || equals.text !== '=') return fail(`expected = after option ${token.text}`, equals.at)
    const value = tokens.next()
    if (value.kind !== 'word' && value.kind !== 'quoted') return fail(`no value for option ${token.text} (quote it)`, value.at)
    if (options.has(token.text)) return fail(`option ${token.text} is given twice`, token.at)
    options.set(token.text, value.text)
  }
  const rest = tokens.next()
  if (rest.kind !== 'end')
    return fail('more after the login module: a client takes exactly one login module, ended by a semicolon', rest.at)
  return { loginModule: first.text, flag: flagToken.text.toLowerCase(), options }
}

const WORD_START = /[A-Za-z_$\u00a0-\uffff]/
const WORD_PART = /[A-Za-z0-9_.$\-\u00a0-\uffff]/
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' }

class Tokenizer {
  readonly #text: string
  #at = 0
  constructor(text: string) {
    this.#text = text
  }

  next(): Token {
    this.#skipSpaceAndComments()
    const text = this.#text
    const at = this.#at
    if (at >= text.length) return { kind: 'end', at }
    const c = text[at]!
    if (c === '"' || c === "'") return this.#quoted(c)
    if (WORD_START.test(c)) {
      let end = at + 1
      while (end < text.length && WORD_PART.test(text[end]!)) end++
      this.#at = end
      return { kind: 'word', text: text.slice(at, end), at }
    }
    this.#at++
    return { kind: 'symbol', text: c, at }
  }

  #skipSpaceAndComments(): void {
    const text = this.#text
    for (;;) {
      while (this.#at < text.length && text.charCodeAt(this.#at) <= 0x20) this.#at++
      if (text.startsWith('//', this.#at)) {
        while (this.#at < text.length && text[this.#at] !== '\n' && text[this.#at] !== '\r') this.#at++
      } else if (text.startsWith('/*', this.#at)) {
        const end = text.indexOf('*/', this.#at + 2)
        if (end < 0) throw new JaasSyntaxError(`a /* comment is not closed (at character ${this.#at + 1})`)
        this.#at = end + 2
      } else return
    }
  }

  #quoted(quote: string): Token {
    const text = this.#text
    const at = this.#at
    let out = ''
    let i = at + 1
    for (;;) {
      const c = text[i]
      if (c === undefined || c === '\n' || c === '\r')
        throw new JaasSyntaxError(`a quoted value is not closed on its line (at character ${at + 1})`)
      if (c === quote) break
      if (c !== '\\') {
        out += c
        i++
        continue
      }
      const next = text[i + 1]
      if (next === undefined) throw new JaasSyntaxError(`a quoted value is not closed on its line (at character ${at + 1})`)
      const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))?.[0]
      if (octal !== undefined) {
        // StreamTokenizer takes a third octal digit only when the first is 0 to 3.
        const digits = octal.length === 3 && octal[0]! > '3' ? octal.slice(0, 2) : octal
        out += String.fromCharCode(Number.parseInt(digits, 8))
        i += 1 + digits.length
      } else {
        out += SIMPLE_ESCAPES[next] ?? next
        i += 2
      }
    }
    this.#at = i + 1
    return { kind: 'quoted', text: out, at }
  }
}
