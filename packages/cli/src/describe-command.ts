/** `kstreams describe <module>`: a module's topology as Kafka's describe() text, a Mermaid flowchart or an HTML page. @internal */
import { toMermaid } from '@kstreams/core'
import { basename } from 'node:path'
import { UsageError } from './cli-error.js'
import { topologyPage } from './html-page.js'
import { parse, stringOption, type CommandSpec } from './options.js'
import type { Output } from './output.js'
import { loadTopologyDescription } from './topology-module.js'

const FORMATS = ['text', 'mermaid', 'html'] as const

export const DESCRIBE: CommandSpec = {
  name: 'describe',
  usage: 'kstreams describe <module> [--format text|mermaid|html]',
  summary: [
    'Loads an ES module (a .js or .mjs file; .ts where your Node strips types) and prints the topology it',
    "exports: its default export or the export named 'topology', a Topology, a StreamsBuilder, or a",
    'function returning one. The module is run: it should only build its topology, not start it.'
  ].join('\n'),
  positionals: ['module'],
  options: [
    {
      name: 'format',
      short: 'f',
      type: 'string',
      value: '<format>',
      description:
        'text: the describe() text, as Kafka Streams prints it (default); mermaid: a Mermaid flowchart (toMermaid); html: a self-contained page with both (no script or asset from elsewhere).'
    }
  ],
  notes: 'Exit codes: 0 printed; 1 the module could not be loaded or exports no topology; 2 invalid options.'
}

export async function runDescribe(args: readonly string[], out: Output, cwd: string): Promise<number | 'help'> {
  const parsed = parse(DESCRIBE, args)
  if (parsed.help) return 'help'
  const format = stringOption(parsed, 'format') ?? 'text'
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError('describe', `--format must be one of ${FORMATS.join(', ')}, got '${format}'`)
  const path = parsed.positionals[0]!
  const description = await loadTopologyDescription(path, cwd)
  if (format === 'text') out.write(ensureNewline(description.toString()))
  else if (format === 'mermaid') out.write(ensureNewline(toMermaid(description)))
  else out.write(topologyPage({ title: `Topology of ${basename(path)}`, mermaid: toMermaid(description), text: description.toString() }))
  return 0
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}
