/**
 * CPU profile summaries for the e2e bench (profiles written by node --cpu-prof in a pipeline
 * worker). The worker saves the source maps of the TypeScript files it loaded (tsx transpiles
 * them, so the profile's line numbers are those of the generated code) next to the profile;
 * the summary maps every frame back to file:line of the .ts source and prints the top functions
 * by self time and by inclusive time, and self time per file.
 * Also a command: node --import tsx tools/bench/e2e/profile-summary.ts <file.cpuprofile> [top]
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { findSourceMap, SourceMap } from 'node:module'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..')

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
  columnNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Saves the source maps of every loaded .ts file of the repository (worker side; needs --enable-source-maps). */
export function writeLoadedSourceMaps(path: string): void {
  const maps: Record<string, unknown> = {}
  for (const dir of ['packages', 'tools', 'examples']) {
    for (const file of tsFiles(join(REPO_ROOT, dir))) {
      const url = pathToFileURL(file).href
      const map = findSourceMap(url)
      if (map !== undefined) maps[url] = map.payload
    }
  }
  writeFileSync(path, JSON.stringify(maps))
}

function tsFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...tsFiles(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

export const mapsPathOf = (profilePath: string): string => `${profilePath}.maps.json`

interface Row {
  key: string
  self: number
  total: number
}

/** Lines of text: top functions by self and inclusive time, self time per file. */
export function summarizeProfile(profilePath: string, top = 25): string[] {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile
  const mapsPath = mapsPathOf(profilePath)
  const payloads = existsSync(mapsPath)
    ? (JSON.parse(readFileSync(mapsPath, 'utf8')) as Record<string, ConstructorParameters<typeof SourceMap>[0]>)
    : {}
  const maps = new Map<string, SourceMap>()
  const mapFor = (url: string): SourceMap | undefined => {
    if (!(url in payloads)) return undefined
    let map = maps.get(url)
    if (map === undefined) maps.set(url, (map = new SourceMap(payloads[url]!)))
    return map
  }
  const parent = new Map<number, number>()
  const byId = new Map<number, ProfileNode>()
  for (const node of profile.nodes) {
    byId.set(node.id, node)
    for (const child of node.children ?? []) parent.set(child, node.id)
  }
  const keyOf = new Map<number, { fn: string; file: string }>()
  for (const node of profile.nodes) keyOf.set(node.id, describeFrame(node.callFrame, mapFor))

  const fnRows = new Map<string, Row>()
  const fileSelf = new Map<string, number>()
  let totalUs = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i] ?? 0
    totalUs += us
    const leaf = profile.samples[i]!
    const leafKey = keyOf.get(leaf)!
    row(fnRows, `${leafKey.fn}  ${leafKey.file}`).self += us
    const file = leafKey.file.replace(/:\d+$/, '')
    fileSelf.set(file, (fileSelf.get(file) ?? 0) + us)
    const seen = new Set<string>()
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const k = keyOf.get(id)!
      const key = `${k.fn}  ${k.file}`
      if (seen.has(key)) continue
      seen.add(key)
      row(fnRows, key).total += us
    }
  }
  const pct = (us: number): string => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`
  const ms = (us: number): string => `${Math.round(us / 1000)}`.padStart(7)
  const rows = [...fnRows.values()]
  const lines = [
    `profile ${relative(process.cwd(), profilePath)}: ${Math.round(totalUs / 1000)} ms sampled`,
    '',
    'top functions by self time (ms, % of all samples)'
  ]
  for (const r of rows.sort((a, b) => b.self - a.self).slice(0, top)) lines.push(`${ms(r.self)} ${pct(r.self)}  ${r.key}`)
  lines.push('', 'top functions by inclusive time (ms, %), without (root)/(program)/(idle)')
  const framework = rows.filter(r => !r.key.startsWith('(root)') && !r.key.startsWith('(program)') && !r.key.startsWith('(idle)'))
  for (const r of framework.sort((a, b) => b.total - a.total).slice(0, top)) lines.push(`${ms(r.total)} ${pct(r.total)}  ${r.key}`)
  lines.push('', 'self time per file (ms, %)')
  for (const [file, us] of [...fileSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${ms(us)} ${pct(us)}  ${file}`)
  return lines
}

function row(rows: Map<string, Row>, key: string): Row {
  let r = rows.get(key)
  if (r === undefined) rows.set(key, (r = { key, self: 0, total: 0 }))
  return r
}

/** "function" and "file:line" (1-based, of the original .ts where a source map is known). */
function describeFrame(frame: CallFrame, mapFor: (url: string) => SourceMap | undefined): { fn: string; file: string } {
  const fn = frame.functionName === '' ? '(anonymous)' : frame.functionName
  if (frame.url === '') return { fn, file: '' }
  let url = frame.url
  let line = frame.lineNumber + 1
  const map = mapFor(url)
  if (map !== undefined && frame.lineNumber >= 0) {
    const entry = map.findEntry(frame.lineNumber, Math.max(0, frame.columnNumber)) as { originalSource?: string; originalLine?: number }
    if (entry.originalSource !== undefined && entry.originalLine !== undefined) {
      url = entry.originalSource
      line = entry.originalLine + 1
    }
  }
  const path = url.startsWith('file://') ? relative(REPO_ROOT, fileURLToPath(url)) : url
  return { fn, file: `${path}:${line}` }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2)
  if (file === undefined) {
    process.stderr.write('usage: node --import tsx tools/bench/e2e/profile-summary.ts <file.cpuprofile> [top]\n')
    process.exit(2)
  }
  process.stdout.write(summarizeProfile(file, top === undefined ? 25 : Number(top)).join('\n') + '\n')
}
