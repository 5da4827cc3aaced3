import { expect } from 'chai'
import { CommandConfigError } from '../../src/command-config/command-config-error.js'
import { parseJavaProperties } from '../../src/command-config/java-properties.js'

const parse = (text: string): Record<string, string> =>
  Object.fromEntries(parseJavaProperties(text, 'client.properties').map(e => [e.key, e.value]))
const failure = (text: string): CommandConfigError => {
  try {
    parseJavaProperties(text, 'client.properties')
  } catch (error) {
    expect(error).to.be.instanceOf(CommandConfigError)
    expect((error as CommandConfigError).code).to.equal('INVALID_CONFIG')
    return error as CommandConfigError
  }
  throw new Error('expected a CommandConfigError')
}

describe('parseJavaProperties (java.util.Properties.load syntax)', () => {
  it('reads key=value, key: value and key value, with white space around the separator', () => {
    expect(parse('a=1\nb: 2\nc 3\n  d  =  4\ne\t:\tfive\nf = = 6\ng::7\n')).to.deep.equal({
      a: '1',
      b: '2',
      c: '3',
      d: '4',
      e: 'five',
      f: '= 6',
      g: ':7'
    })
  })

  it('skips comment lines (# and !, after white space) and blank lines, and keeps # inside a value', () => {
    expect(parse('# a comment\n  ! another\n\n   \t\nkey=value # not a comment\n')).to.deep.equal({ key: 'value # not a comment' })
  })

  it('reads a key without a value as the empty string, and keeps trailing white space of values as Java does', () => {
    expect(parse('alone\nempty=\nspaced=x  \n')).to.deep.equal({ alone: '', empty: '', spaced: 'x  ' })
  })

  it('joins a line ending in an odd number of backslashes with the next, dropping its leading white space', () => {
    expect(parse('jaas=one \\\n    two \\\n\tthree\nnext=1\n')).to.deep.equal({ jaas: 'one two three', next: '1' })
    // An even number is escaped backslashes, not a continuation.
    expect(parse('path=c:\\\\\nnext=1\n')).to.deep.equal({ path: 'c:\\', next: '1' })
    // A continued line is not a comment even if it starts with #.
    expect(parse('a=x\\\n#y\n')).to.deep.equal({ a: 'x#y' })
    // A backslash on the last line continues into nothing.
    expect(parse('a=x\\')).to.deep.equal({ a: 'x' })
  })

  it('decodes \\t \\n \\r \\f \\uXXXX, and a backslash before any other character stands for that character', () => {
    expect(parse('a=tab\\there\nb=line\\nbreak\nc=\\u0041\\u00e9\\u20AC\nd=\\r\\f\ne=\\q\\=\\:\\ \\#\\\\\n')).to.deep.equal({
      a: 'tab\there',
      b: 'line\nbreak',
      c: 'Aé€',
      d: '\r\f',
      e: 'q=: #\\'
    })
  })

  it('takes escaped separators and white space as part of the key', () => {
    expect(parse('my\\=key=1\nmy\\ key 2\nmy\\:key:3\n')).to.deep.equal({ 'my=key': '1', 'my key': '2', 'my:key': '3' })
  })

  it('accepts \\r\\n and \\r line ends', () => {
    expect(parse('a=1\r\nb=2\rc=3')).to.deep.equal({ a: '1', b: '2', c: '3' })
  })

  it('gives the line each entry starts on', () => {
    const entries = parseJavaProperties('# c\n\na=1 \\\n 2\nb=3\n', 'f')
    expect(entries).to.deep.equal([
      { key: 'a', value: '1 2', line: 3 },
      { key: 'b', value: '3', line: 5 }
    ])
  })

  it('refuses a malformed \\u escape, naming the line but not the value', () => {
    const error = failure('ok=1\nsasl.jaas.config=secret\\u12G4\n')
    expect(error.message).to.equal('client.properties line 2: a malformed \\uXXXX escape (four hexadecimal digits expected)')
    expect(failure('a=\\u12').message).to.include('line 1: a malformed')
  })

  it('refuses a key given twice, naming both lines', () => {
    const error = failure('a=1\n#\nb=2\na=3\n')
    expect(error.message).to.equal('client.properties line 4: a is set again (first on line 1); keep one')
    expect(error.key).to.equal('a')
  })

  it('refuses an entry without a key', () => {
    expect(failure('=value\n').message).to.equal('client.properties line 1: an entry without a key')
  })

  it('refuses non-ASCII characters outside comments (Java reads the file as ISO-8859-1), not echoing them', () => {
    // What readFile(...).toString('latin1') gives for the UTF-8 bytes of "pässword".
    const utf8AsLatin1 = Buffer.from('password=pässword\n', 'utf8').toString('latin1')
    const error = failure(`# ünïcode comments are fine\n${utf8AsLatin1}`)
    expect(error.message).to.match(/^client\.properties line 2: a non-ASCII character: .* write it as \\uXXXX$/)
    expect(error.message).not.to.include('ss')
    expect(parse('# ünïcode\npassword=p\\u00e4ssword\n')).to.deep.equal({ password: 'pässword' })
  })
})
