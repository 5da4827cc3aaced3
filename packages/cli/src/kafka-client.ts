/**
 * The Kafka client of the commands that talk to Kafka: `--client kafkajs` (the default,
 * @kstreams/kafkajs, a dependency of this package) or `--client platformatic` (the optional peer
 * @kstreams/platformatic, loaded only when asked for), with the TLS, SASL, client id and timeouts
 * of `--command-config` (a Kafka tools' client properties file). @internal
 */
import { silentLogger, type KafkaClient, type KafkaClientFactory } from '@kstreams/core'
import { CliError, UsageError } from './cli-error.js'
import { loadCommandConfig, type CommandConfig } from './command-config/command-config.js'
import { OAuthBearerTokenError } from './command-config/oauth-bearer-tokens.js'
import { stringOption, type OptionSpec, type ParsedArgs } from './options.js'
import type { Output } from './output.js'

/** The client names `--client` takes. */
export const CLIENT_NAMES = ['kafkajs', 'platformatic'] as const

/** `--command-config <file>`, the same for every command that talks to Kafka. */
export const COMMAND_CONFIG_OPTION: OptionSpec = {
  name: 'command-config',
  type: 'string',
  value: '<file>',
  description:
    "A Kafka client properties file, as Kafka's tools take: security.protocol, sasl.mechanism, sasl.jaas.config, ssl.* (PEM or PKCS12 stores), client.id, request.timeout.ms (see the README)."
}

/** The `--command-config` file of `args` read and checked (its warnings written to `err`), or undefined without the option. */
export async function commandConfigOption(args: ParsedArgs, err: Output, cwd: string): Promise<CommandConfig | undefined> {
  const path = stringOption(args, 'command-config')
  if (path === undefined) return undefined
  const config = await loadCommandConfig(path, cwd)
  for (const warning of config.warnings) err.line(`WARN: ${warning}`)
  return config
}

const CREDENTIAL_ERRORS = new Set(['SASL_AUTHENTICATION_FAILED', 'UNSUPPORTED_SASL_MECHANISM', 'ILLEGAL_SASL_STATE'])

/**
 * Runs `work`; when it fails on the credentials of the command config, first writes to `err`
 * which ones (the file, the protocol, the mechanism and user; never a secret): the brokers
 * refused them, or the OAUTHBEARER token could not be had (the adapters may wrap that error
 * deep, or report it as a connection failure). Then lets the error through.
 */
export async function withCredentials<T>(config: CommandConfig | undefined, err: Output, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (config === undefined) throw error
    const token = causes(error).find(e => e instanceof OAuthBearerTokenError)
    const name = (error as { errorName?: unknown }).errorName ?? (error as { code?: unknown }).code
    // The adapters report a failed token provider as SASL_AUTHENTICATION_FAILED, its reason in the message.
    const providerFailure = / the oauthBearerProvider failed: (.*?)(?: \([A-Z_]+\))?$/.exec(error instanceof Error ? error.message : '')
    if (token !== undefined) err.line(`Getting an OAUTHBEARER token for --command-config ${config.source} failed: ${token.message}`)
    else if (providerFailure !== null)
      err.line(`Getting an OAUTHBEARER token for --command-config ${config.source} failed: ${providerFailure[1]}`)
    else if (typeof name === 'string' && CREDENTIAL_ERRORS.has(name))
      err.line(`The brokers refused the credentials of --command-config ${config.source} (${config.summary}):`)
    throw error
  }
}

/** `error`, its causes and the errors it aggregates, a few levels deep. */
function causes(error: unknown, depth = 0): unknown[] {
  if (!(error instanceof Error) || depth > 8) return [error]
  const aggregated = (error as { errors?: unknown }).errors
  const nested = [error.cause, ...(Array.isArray(aggregated) ? aggregated : [])]
  return [error, ...nested.filter(e => e !== undefined).flatMap(e => causes(e, depth + 1))]
}

/** A client factory for `bootstrapServers` with the chosen adapter and the settings of a command config. */
export async function kafkaClientFactory(
  command: string,
  options: { client: string | undefined; bootstrapServers: string; config?: CommandConfig | undefined }
): Promise<KafkaClientFactory> {
  const name = options.client ?? 'kafkajs'
  if (!(CLIENT_NAMES as readonly string[]).includes(name))
    throw new UsageError(command, `--client must be one of ${CLIENT_NAMES.join(', ')}, got '${name}'`)
  const config = options.config
  const servers = options.bootstrapServers
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  if (servers.length === 0) throw new UsageError(command, '--bootstrap-server needs at least one host:port')
  const make = name === 'platformatic' ? await loadPlatformatic() : (await import('@kstreams/kafkajs')).kafkajs()
  return make({
    bootstrapServers: servers,
    clientId: config?.clientId ?? 'kstreams-cli',
    ssl: config?.ssl,
    sasl: config?.sasl,
    connectionTimeoutMs: config?.connectionTimeoutMs ?? 10_000,
    requestTimeoutMs: config?.requestTimeoutMs ?? 30_000,
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
