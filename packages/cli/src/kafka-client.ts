/**
 * The Kafka client of the commands that talk to Kafka: `--client kafkajs` (the default,
 * @kstreams/kafkajs, a dependency of this package) or `--client platformatic` (the optional peer
 * @kstreams/platformatic, loaded only when asked for). @internal
 */
import { silentLogger, type KafkaClient, type KafkaClientFactory } from '@kstreams/core'
import { CliError, UsageError } from './cli-error.js'

/** The client names `--client` takes. */
export const CLIENT_NAMES = ['kafkajs', 'platformatic'] as const

/** A client factory for `bootstrapServers` with the chosen adapter. */
export async function kafkaClientFactory(
  command: string,
  client: string | undefined,
  bootstrapServers: string
): Promise<KafkaClientFactory> {
  const name = client ?? 'kafkajs'
  if (!(CLIENT_NAMES as readonly string[]).includes(name))
    throw new UsageError(command, `--client must be one of ${CLIENT_NAMES.join(', ')}, got '${name}'`)
  const servers = bootstrapServers
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  if (servers.length === 0) throw new UsageError(command, '--bootstrap-server needs at least one host:port')
  const make = name === 'platformatic' ? await loadPlatformatic() : (await import('@kstreams/kafkajs')).kafkajs()
  return make({
    bootstrapServers: servers,
    clientId: 'kstreams-cli',
    ssl: undefined,
    sasl: undefined,
    connectionTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    logger: silentLogger
  })
}

async function loadPlatformatic(): Promise<KafkaClient> {
  try {
    return (await import('@kstreams/platformatic')).platformatic()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error
    throw new CliError(
      'INVALID_CONFIG',
      '--client platformatic needs @kstreams/platformatic (Node 22.22+): npm install @kstreams/platformatic',
      {
        cause: error
      }
    )
  }
}
