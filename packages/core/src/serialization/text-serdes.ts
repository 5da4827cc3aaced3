/**
 * Text serdes byte-identical to Java's: String (UTF-8), UUID (the 36-character canonical string,
 * lower case, as UTF-8, like Java's UUIDSerializer writing `uuid.toString()`) and Json
 * (JSON.stringify as UTF-8). null stays null both ways; anything that cannot be encoded or
 * decoded is a SerializationError naming the topic, with the original error as `cause`.
 */
import type { Serde } from './serde.js'
import { invalidData } from './serde-errors.js'
import { serdeFrom } from './serde-from.js'

// ES2024 String.prototype.isWellFormed (Node >= 20); the project's lib is ES2023.
interface WellFormedString {
  isWellFormed(): boolean
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const UUID_LENGTH = 36

/**
 * UTF-8 bytes of a string exactly as Java's `String.getBytes(UTF_8)`: a lone surrogate becomes
 * '?' (0x3f), where Buffer.from would write U+FFFD. Well-formed strings take the fast path.
 */
export function encodeUtf8(text: string): Buffer {
  if (!(text as unknown as WellFormedString).isWellFormed()) text = text.replace(LONE_SURROGATE, '?')
  return Buffer.from(text, 'utf8')
}

/** Java String with UTF-8: malformed bytes decode to U+FFFD, as `new String(bytes, UTF_8)` does. */
export function stringSerde(): Serde<string> {
  return serdeFrom<string>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'string') throw invalidData('StringSerializer', topic, data, 'not a string')
        return encodeUtf8(data)
      }
    },
    {
      deserialize(_topic, data) {
        if (data === null) return null
        return data.toString('utf8')
      }
    }
  )
}

/**
 * Java UUID: a UUID string such as '123e4567-e89b-12d3-a456-426614174000'. Upper case input is
 * written in lower case, as Java's `UUID.toString()` would; deserialize accepts only the
 * canonical 8-4-4-4-12 hex form and returns it in lower case.
 */
export function uuidSerde(): Serde<string> {
  return serdeFrom<string>(
    {
      serialize(topic, data) {
        if (data === null) return null
        if (typeof data !== 'string' || !UUID_TEXT.test(data)) {
          throw invalidData('UUIDSerializer', topic, data, 'not a UUID in 8-4-4-4-12 hex form')
        }
        return Buffer.from(data.toLowerCase(), 'latin1')
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        const text = data.length === UUID_LENGTH ? data.toString('latin1') : ''
        if (!UUID_TEXT.test(text)) {
          throw invalidData('UUIDDeserializer', topic, data, 'Error parsing data into UUID (expected 36 characters in 8-4-4-4-12 hex form)')
        }
        return text.toLowerCase()
      }
    }
  )
}

/**
 * JSON as UTF-8 text. Serialize is JSON.stringify (a value it cannot represent, such as a cycle,
 * a bigint or a bare `undefined`, is an error); deserialize is JSON.parse, unchecked against T.
 */
export function jsonSerde<T>(): Serde<T> {
  return serdeFrom<T>(
    {
      serialize(topic, data) {
        if (data === null) return null
        let text: string | undefined
        try {
          text = JSON.stringify(data)
        } catch (err) {
          throw invalidData('JsonSerializer', topic, data, 'JSON.stringify failed', err)
        }
        if (text === undefined) throw invalidData('JsonSerializer', topic, data, 'JSON.stringify returned no JSON text')
        // JSON.stringify escapes lone surrogates, so its output is always well-formed.
        return Buffer.from(text, 'utf8')
      }
    },
    {
      deserialize(topic, data) {
        if (data === null) return null
        try {
          return JSON.parse(data.toString('utf8')) as T
        } catch (err) {
          throw invalidData('JsonDeserializer', topic, data, 'invalid JSON', err)
        }
      }
    }
  )
}
