/**
 * `kstreams query`: asks a running application's interactive-query HTTP endpoint
 * (InteractiveQueryServer: `GET /stores/:store/keys/:key`, `/windows?from=&to=`, `/sessions`)
 * for a key, and prints its JSON answer. 404 exits 3; 503 (rebalancing, restoring) and other
 * failures exit 1 naming the status and the server's error. @internal
 */
import { CliError, EXIT_CODES, UsageError } from './cli-error.js'
import { integerOption, parse, stringOption, type CommandSpec } from './options.js'
import type { Output } from './output.js'

export const QUERY: CommandSpec = {
  name: 'query',
  usage: 'kstreams query --url <endpoint> --store <name> --key <key> [--windows [--from <ms>] [--to <ms>] | --sessions]',
  summary: [
    "Asks a running application's interactive-query HTTP endpoint (InteractiveQueryServer) for the value of a",
    'key in a store, or the windows or sessions of a key in a window or session store, and prints the JSON',
    'answer. Any instance answers: it forwards to the instance that hosts the key.'
  ].join('\n'),
  positionals: [],
  options: [
    {
      name: 'url',
      type: 'string',
      value: '<url>',
      description: 'REQUIRED: the endpoint, e.g. http://127.0.0.1:7070 (with the basePath it is mounted under, if any).'
    },
    { name: 'store', type: 'string', value: '<name>', description: 'REQUIRED: the store name.' },
    {
      name: 'key',
      type: 'string',
      value: '<key>',
      description: 'REQUIRED: the key, as the server parses it (parseKey; a string by default).'
    },
    { name: 'windows', type: 'boolean', description: 'The windows of the key in a window store.' },
    { name: 'from', type: 'string', value: '<ms>', description: 'With --windows: the earliest window start (epoch ms).' },
    { name: 'to', type: 'string', value: '<ms>', description: 'With --windows: the latest window start (epoch ms).' },
    { name: 'sessions', type: 'boolean', description: 'The sessions of the key in a session store.' },
    {
      name: 'header',
      type: 'string',
      value: '<name: value>',
      description: 'A request header (e.g. an authorization header the server checks).'
    },
    { name: 'timeout', type: 'string', value: '<ms>', description: 'How long to wait for each answer (default 10000).' },
    {
      name: 'wait',
      type: 'string',
      value: '<ms>',
      description: 'Ask again after a 503 (rebalancing, restoring), as its Retry-After says, for up to this long (default 0: do not).'
    }
  ],
  notes:
    'Exit codes: 0 found; 1 failed (unreachable, 503 while rebalancing or restoring, 4xx/5xx); 2 invalid options; 3 key or store not found (404).'
}

export async function runQuery(args: readonly string[], out: Output, err: Output): Promise<number | 'help'> {
  const parsed = parse(QUERY, args)
  if (parsed.help) return 'help'
  const required = (name: string): string => {
    const value = stringOption(parsed, name)
    if (value === undefined || value === '') throw new UsageError('query', `missing required option --${name}`)
    return value
  }
  const [base, store, key] = [required('url'), required('store'), required('key')]
  const windows = parsed.values.windows === true
  const sessions = parsed.values.sessions === true
  if (windows && sessions) throw new UsageError('query', 'only one of --windows and --sessions may be given')
  const from = integerOption(parsed, 'query', 'from')
  const to = integerOption(parsed, 'query', 'to')
  if (!windows && (from !== undefined || to !== undefined)) throw new UsageError('query', '--from and --to go with --windows')
  const timeoutMs = integerOption(parsed, 'query', 'timeout') ?? 10_000
  const waitUntil = Date.now() + (integerOption(parsed, 'query', 'wait') ?? 0)
  let url: URL
  try {
    url = new URL(base.endsWith('/') ? base : `${base}/`)
  } catch {
    throw new UsageError('query', `--url is not a URL: '${base}'`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('query', `--url must be http or https, got '${url.protocol}'`)
  let path = `stores/${encodeURIComponent(store)}/keys/${encodeURIComponent(key)}`
  if (windows) path += '/windows'
  if (sessions) path += '/sessions'
  const target = new URL(path, url)
  if (from !== undefined) target.searchParams.set('from', String(from))
  if (to !== undefined) target.searchParams.set('to', String(to))
  const headers = headerOption(stringOption(parsed, 'header'))

  let response: Response
  for (;;) {
    try {
      response = await fetch(target, { headers, signal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message
      throw new CliError('NOT_RUNNING', `No answer from ${target.href}: ${reason}`, { cause: error })
    }
    const pause = Math.max(0, Number(response.headers.get('retry-after') ?? 1)) * 1000
    if (response.status !== 503 || Date.now() + pause > waitUntil) break
    await response.body?.cancel()
    await new Promise(resolve => setTimeout(resolve, pause))
  }
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new CliError('ILLEGAL_STATE', `${target.href} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`)
  }
  if (response.status === 200) {
    out.line(JSON.stringify(body, null, 2))
    return EXIT_CODES.OK
  }
  const error = (body as { error?: unknown }).error ?? text
  if (response.status === 404) {
    err.line(`Not found: ${String(error)} (store ${store}, key ${key})`)
    return EXIT_CODES.NOT_FOUND
  }
  const retry = response.headers.get('retry-after')
  throw new CliError(
    response.status === 503 ? 'STREAMS_REBALANCING' : 'ILLEGAL_STATE',
    `${target.href} answered ${response.status}: ${String(error)}${retry === null ? '' : ` (retry after ${retry} s)`}`
  )
}

function headerOption(raw: string | undefined): Record<string, string> {
  if (raw === undefined) return {}
  const colon = raw.indexOf(':')
  if (colon <= 0) throw new UsageError('query', `--header needs 'Name: value', got '${raw}'`)
  return { [raw.slice(0, colon).trim()]: raw.slice(colon + 1).trim() }
}
