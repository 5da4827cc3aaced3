import { expect } from 'chai'
import { JaasSyntaxError, parseJaasConfig } from '../../src/command-config/jaas-config.js'

const SCRAM = 'org.apache.kafka.common.security.scram.ScramLoginModule'
const options = (text: string): Record<string, string> => Object.fromEntries(parseJaasConfig(text).options)
const failure = (text: string): string => {
  try {
    parseJaasConfig(text)
  } catch (error) {
    expect(error).to.be.instanceOf(JaasSyntaxError)
    return (error as Error).message
  }
  throw new Error('expected a JaasSyntaxError')
}

describe('parseJaasConfig (Kafka sasl.jaas.config syntax)', () => {
  it('reads the login module, its flag and its options', () => {
    const entry = parseJaasConfig(`${SCRAM} required username="alice" password="alice-secret";`)
    expect(entry.loginModule).to.equal(SCRAM)
    expect(entry.flag).to.equal('required')
    expect(Object.fromEntries(entry.options)).to.deep.equal({ username: 'alice', password: 'alice-secret' })
  })

  it('takes the four control flags in any case', () => {
    for (const flag of ['required', 'REQUISITE', 'Sufficient', 'optional'])
      expect(parseJaasConfig(`${SCRAM} ${flag};`).flag).to.equal(flag.toLowerCase())
  })

  it("takes single quotes (Confluent Cloud's snippets), unquoted words, and no options", () => {
    expect(options(`${SCRAM} required username='KEY123' password='s3cr3t/+=';`)).to.deep.equal({
      username: 'KEY123',
      password: 's3cr3t/+='
    })
    expect(options(`${SCRAM} required username=alice tokenauth=false;`)).to.deep.equal({ username: 'alice', tokenauth: 'false' })
    expect(options(`${SCRAM} required;`)).to.deep.equal({})
  })

  it('decodes escapes in quoted values: \\" \\\\ \\n \\t, octal, and any other character', () => {
    expect(options(`${SCRAM} required password="a\\"b\\\\c\\nd\\te\\101\\q" other='it\\'s';`)).to.deep.equal({
      password: 'a"b\\c\nd\teAq',
      other: "it's"
    })
  })

  it('keeps a quote of the other kind, spaces, = and ; inside a quoted value', () => {
    expect(options(`${SCRAM} required password="it's; a = b";`)).to.deep.equal({ password: "it's; a = b" })
  })

  it('skips white space, newlines and // and /* */ comments between tokens', () => {
    const text = `/* client */ ${SCRAM}\n  required // the flag\n  username="u"\t/* the user */ password = "p"\n  ;  // end\n`
    expect(options(text)).to.deep.equal({ username: 'u', password: 'p' })
  })

  it('refuses a missing semicolon, naming where', () => {
    expect(failure(`${SCRAM} required username="u" password="p"`)).to.equal(
      'the login module is not ended by a semicolon (at character 91)'
    )
  })

  it('refuses a missing or unknown control flag', () => {
    expect(failure(`${SCRAM} username="u";`)).to.match(/^expected the control flag \(required, requisite, sufficient or optional\)/)
    expect(failure(`${SCRAM} mandatory username="u";`)).to.match(/^expected the control flag/)
    expect(failure(`${SCRAM};`)).to.match(/^expected the control flag/)
  })

  it('refuses an empty config, and a second login module or anything after the semicolon', () => {
    expect(failure('  // nothing\n')).to.match(/^no login module/)
    expect(failure(`${SCRAM} required; ${SCRAM} required;`)).to.match(
      /^more after the login module: a client takes exactly one login module/
    )
    expect(failure(`${SCRAM} required; x`)).to.match(/^more after the login module/)
  })

  it('refuses an option without = or without a value, and a value that is neither a word nor quoted', () => {
    expect(failure(`${SCRAM} required username "u";`)).to.match(/^expected = after option username/)
    expect(failure(`${SCRAM} required username=;`)).to.match(/^no value for option username \(quote it\)/)
    expect(failure(`${SCRAM} required password=123;`)).to.match(/^no value for option password \(quote it\)/)
  })

  it('refuses an option given twice', () => {
    expect(failure(`${SCRAM} required username="a" username="b";`)).to.match(/^option username is given twice/)
  })

  it('refuses a quoted value not closed on its line and an unclosed comment, without echoing the value', () => {
    const unclosed = failure(`${SCRAM} required password="hunter2;`)
    expect(unclosed).to.match(/^a quoted value is not closed on its line \(at character \d+\)$/)
    expect(unclosed).not.to.include('hunter2')
    expect(failure(`${SCRAM} required password="hunter2\n";`)).not.to.include('hunter2')
    expect(failure(`${SCRAM} required /* open`)).to.match(/^a \/\* comment is not closed/)
  })

  it('refuses a login module that does not start with a class name', () => {
    expect(failure('"quoted" required;')).to.match(/^expected the login module class/)
  })
})
