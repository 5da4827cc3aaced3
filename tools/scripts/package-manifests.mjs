/**
 * One place for what every published package declares, so the manifests agree: entry points
 * with `types` first (and top-level main/types/typesVersions for moduleResolution "node"), only
 * built files without source maps, engines, publishConfig, repository, `@types/node` (the
 * published types use Node's), `@kstreams/core` as a peer with a range (a second copy of core
 * breaks identity), caret ranges between our packages, a README, and the repository's LICENSE.
 *
 *   node tools/scripts/package-manifests.mjs           checks; exits 1 naming what is out of date
 *   node tools/scripts/package-manifests.mjs --write   rewrites package.json files, copies LICENSE
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'

const REPO = 'https://github.com/kstreams/kstreams'
const ORDER = [
  'name',
  'version',
  'description',
  'keywords',
  'license',
  'repository',
  'homepage',
  'bugs',
  'type',
  'engines',
  'main',
  'types'
]
  .concat(['typesVersions', 'exports', 'files', 'publishConfig', 'scripts', 'dependencies', 'peerDependencies', 'peerDependenciesMeta'])
  .concat(['devDependencies'])

const version = JSON.parse(readFileSync('lerna.json', 'utf8')).version
const sorted = object => Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)))

function manifest(dir, m) {
  for (const field of ['description', 'keywords']) if (m[field] === undefined) throw new Error(`${dir}/package.json has no "${field}"`)
  if (m.version !== version) throw new Error(`${dir}/package.json has version ${m.version}, lerna.json ${version} (fixed mode)`)
  m.repository = { type: 'git', url: `git+${REPO}.git`, directory: dir }
  m.homepage = `${REPO}/tree/main/${dir}#readme`
  m.bugs = { url: `${REPO}/issues` }
  const exports = {}
  for (const [subpath, target] of Object.entries(m.exports)) {
    if (subpath === './package.json') continue
    exports[subpath] = { types: target.types, '@kstreams/source': target['@kstreams/source'], default: target.default }
  }
  exports['./package.json'] = './package.json'
  m.exports = exports
  m.main = exports['.'].default
  m.types = exports['.'].types
  const subpaths = Object.entries(exports).filter(([s]) => s !== '.' && s !== './package.json')
  if (subpaths.length > 0) m.typesVersions = { '*': Object.fromEntries(subpaths.map(([s, t]) => [s.slice(2), [t.types.slice(2)]])) }
  else delete m.typesVersions
  m.files = ['dist/src', '!dist/src/**/*.map']
  m.publishConfig = { access: 'public' }
  m.scripts = { ...m.scripts, prepack: 'tsc -b' }
  m.dependencies = { ...m.dependencies, '@types/node': '>=20' }
  // After `lerna version` (fixed mode) every package has the new version; the ranges follow it.
  if (m.dependencies['@kstreams/core'] !== undefined || m.peerDependencies?.['@kstreams/core'] !== undefined) {
    delete m.dependencies['@kstreams/core']
    m.peerDependencies = { ...m.peerDependencies, '@kstreams/core': `^${version}` }
    m.devDependencies = { ...m.devDependencies, '@kstreams/core': version }
  }
  for (const dep of Object.keys(m.dependencies)) if (dep.startsWith('@kstreams/')) m.dependencies[dep] = `^${version}`
  for (const dep of Object.keys(m.devDependencies ?? {})) if (dep.startsWith('@kstreams/')) m.devDependencies[dep] = version
  for (const section of ['dependencies', 'peerDependencies', 'devDependencies']) if (m[section]) m[section] = sorted(m[section])
  const ordered = Object.fromEntries(ORDER.filter(k => k in m).map(k => [k, m[k]]))
  return { ...ordered, ...m }
}

const write = process.argv.includes('--write')
const license = readFileSync('LICENSE', 'utf8')
const stale = []
for (const name of readdirSync('packages')) {
  const dir = `packages/${name}`
  if (!existsSync(`${dir}/package.json`)) continue
  const before = readFileSync(`${dir}/package.json`, 'utf8')
  const after = `${JSON.stringify(manifest(dir, JSON.parse(before)), null, 2)}\n`
  if (before !== after) {
    stale.push(`${dir}/package.json`)
    if (write) writeFileSync(`${dir}/package.json`, after)
  }
  if (!existsSync(`${dir}/LICENSE`) || readFileSync(`${dir}/LICENSE`, 'utf8') !== license) {
    stale.push(`${dir}/LICENSE`)
    if (write) writeFileSync(`${dir}/LICENSE`, license)
  }
  if (!existsSync(`${dir}/README.md`)) stale.push(`${dir}/README.md (missing: write one)`)
}
if (stale.length > 0) {
  console.error(`${write ? 'updated' : 'out of date (node tools/scripts/package-manifests.mjs --write)'}:\n  ${stale.join('\n  ')}`)
  if (!write || stale.some(s => s.includes('missing'))) process.exit(1)
}
