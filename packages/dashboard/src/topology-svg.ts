/**
 * Draws a TopologyView as one inline SVG (no script, no external asset): a box per sub-topology
 * (and per global store), its nodes in layers from the sources down, input topics above the
 * sources, output topics below the sinks, each store beside the processors that use it with its
 * changelog topic next to it. Repartition topics appear in the sub-topology that writes them and
 * in the one that reads them, marked alike. Every element carries `data-*` attributes naming what
 * it stands for (for tests and for the page's script). Owns layout and markup only.
 */
import type { NodeView, StoreView, SubtopologyView, TopicView, TopologyView } from './topology-view.js'

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe for HTML and SVG, in content and in quoted attributes. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, c => ESCAPES[c]!)
}

const BOX_H = 28
const GAP_X = 14
const GAP_Y = 34
const PAD = 14
const TITLE_H = 24
const CHAR_W = 7

interface Box {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly markup: (x: number, y: number) => string
}

function width(label: string): number {
  return Math.max(96, label.length * CHAR_W + 20)
}

function rect(cls: string, data: string, label: string, title: string): (x: number, y: number) => string {
  const w = width(label)
  return (x, y) =>
    `<g class="${cls}" ${data}><title>${escapeXml(title)}</title>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${BOX_H}" rx="${cls.startsWith('node source') || cls.startsWith('node sink') ? 14 : cls.startsWith('store') ? 8 : 3}"></rect>` +
    `<text x="${x + w / 2}" y="${y + BOX_H / 2 + 4}">${escapeXml(label)}</text></g>`
}

function topicBox(topic: TopicView): (x: number, y: number) => string {
  return rect(
    `topic ${topic.role}`,
    `data-topic="${escapeXml(topic.name)}" data-role="${topic.role}"`,
    topic.name,
    `${topic.role} topic ${topic.name}`
  )
}

/** Layer of each node: 0 for sources, else one below its deepest parent in the sub-topology. */
function layers(sub: SubtopologyView): Map<string, number> {
  const depth = new Map<string, number>()
  const parents = new Map<string, string[]>()
  for (const n of sub.nodes) for (const s of n.successors) parents.set(s, [...(parents.get(s) ?? []), n.name])
  const visit = (name: string, seen: Set<string>): number => {
    const known = depth.get(name)
    if (known !== undefined) return known
    if (seen.has(name)) return 0
    seen.add(name)
    const d = Math.max(-1, ...(parents.get(name) ?? []).map(p => visit(p, seen))) + 1
    depth.set(name, d)
    return d
  }
  for (const n of sub.nodes) visit(n.name, new Set())
  return depth
}

/** A row of boxes placed left to right from `x`. */
function placeRow(
  items: Array<{ key: string; w: number; markup: (x: number, y: number) => string }>,
  x: number,
  y: number
): Map<string, Box> {
  const out = new Map<string, Box>()
  let at = x
  for (const item of items) {
    out.set(item.key, { x: at, y, w: item.w, markup: item.markup })
    at += item.w + GAP_X
  }
  return out
}

function rowWidth(row: ReadonlyMap<string, Box>): number {
  let right = 0
  for (const b of row.values()) right = Math.max(right, b.x + b.w)
  return right
}

function edge(from: Box, to: Box, cls: string): string {
  const x1 = from.x + from.w / 2
  const y1 = from.y + BOX_H
  const x2 = to.x + to.w / 2
  const y2 = to.y
  const mid = (y1 + y2) / 2
  return `<path class="${cls}" d="M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}" marker-end="url(#arrow)"></path>`
}

function side(from: Box, to: Box, cls: string): string {
  return `<path class="${cls}" d="M${from.x + from.w},${from.y + BOX_H / 2} L${to.x},${to.y + BOX_H / 2}"></path>`
}

/** One sub-topology's group at (x, y); returns its markup and size. */
function drawSubtopology(sub: SubtopologyView, stores: ReadonlyMap<string, StoreView>, x0: number, y0: number) {
  const depth = layers(sub)
  const deepest = Math.max(0, ...depth.values())
  const left = x0 + PAD
  let y = y0 + TITLE_H + PAD
  const boxes = new Map<string, Box>()
  const parts: string[] = []
  const edges: string[] = []

  const inputs = new Map<string, TopicView>()
  for (const n of sub.nodes) if (n.kind === 'source') for (const t of n.topics) inputs.set(t.name, t)
  const inputRow = placeRow(
    [...inputs.values()].map(t => ({ key: `in:${t.name}`, w: width(t.name), markup: topicBox(t) })),
    left,
    y
  )
  if (inputRow.size > 0) y += BOX_H + GAP_Y
  for (const [k, b] of inputRow) boxes.set(k, b)

  const nodeRows: Array<Map<string, Box>> = []
  for (let layer = 0; layer <= deepest; layer++) {
    const row = placeRow(
      sub.nodes
        .filter(n => depth.get(n.name) === layer)
        .map((n: NodeView) => ({
          key: `node:${n.name}`,
          w: width(n.name),
          markup: rect(`node ${n.kind}`, `data-node="${escapeXml(n.name)}" data-kind="${n.kind}"`, n.name, `${n.kind} ${n.name}`)
        })),
      left,
      y
    )
    nodeRows.push(row)
    for (const [k, b] of row) boxes.set(k, b)
    y += BOX_H + GAP_Y
  }
  const outputs = new Map<string, TopicView>()
  for (const n of sub.nodes) if (n.kind === 'sink') for (const t of n.topics) outputs.set(t.name, t)
  const dynamic = sub.nodes.filter(n => n.dynamicTopic !== undefined && n.kind === 'sink')
  const outputRow = placeRow(
    [
      ...[...outputs.values()].map(t => ({ key: `out:${t.name}`, w: width(t.name), markup: topicBox(t) })),
      ...dynamic.map(n => ({
        key: `dyn:${n.name}`,
        w: width(n.dynamicTopic!),
        markup: rect('topic dynamic', `data-dynamic="${escapeXml(n.name)}"`, n.dynamicTopic!, n.dynamicTopic!)
      }))
    ],
    left,
    y
  )
  if (outputRow.size > 0) y += BOX_H + GAP_Y
  for (const [k, b] of outputRow) boxes.set(k, b)
  // Source pattern labels sit above their source, in the input row's place.
  for (const n of sub.nodes) {
    if (n.kind !== 'source' || n.dynamicTopic === undefined) continue
    const src = boxes.get(`node:${n.name}`)!
    parts.push(`<text class="pattern" x="${src.x}" y="${src.y - 8}">${escapeXml(n.dynamicTopic)}</text>`)
  }

  let contentRight = Math.max(rowWidth(inputRow), rowWidth(outputRow), ...nodeRows.map(rowWidth), left + 96)
  // Stores (and their changelogs) in a column right of the nodes, each beside its first processor.
  const storeX = contentRight + GAP_X * 2
  let storeBottom = y0 + TITLE_H + PAD
  let storeRight = contentRight
  const placedStores = new Set<string>()
  for (const n of sub.nodes) {
    for (const name of n.stores) {
      if (placedStores.has(name)) continue
      placedStores.add(name)
      const proc = boxes.get(`node:${n.name}`)!
      const store = stores.get(name)
      const sy = Math.max(proc.y, storeBottom)
      const label = store === undefined ? name : `${name} (${store.kind})`
      const sw = width(label)
      const sbox: Box = {
        x: storeX,
        y: sy,
        w: sw,
        markup: rect('store', `data-store="${escapeXml(name)}"`, label, `state store ${name}`)
      }
      boxes.set(`store:${name}`, sbox)
      storeBottom = sy + BOX_H + GAP_Y / 2
      storeRight = Math.max(storeRight, storeX + sw)
      if (store?.changelog !== undefined) {
        const t: TopicView = { name: store.changelog, role: 'changelog' }
        const cbox: Box = { x: storeX + sw + GAP_X * 2, y: sy, w: width(t.name), markup: topicBox(t) }
        boxes.set(`changelog:${name}`, cbox)
        storeRight = Math.max(storeRight, cbox.x + cbox.w)
        edges.push(side(sbox, cbox, 'edge changelog-link'))
      }
    }
  }
  for (const n of sub.nodes) {
    const from = boxes.get(`node:${n.name}`)!
    if (n.kind === 'source') for (const t of n.topics) edges.push(edge(boxes.get(`in:${t.name}`)!, from, 'edge topic-link'))
    if (n.kind === 'sink') {
      for (const t of n.topics) edges.push(edge(from, boxes.get(`out:${t.name}`)!, 'edge topic-link'))
      if (n.dynamicTopic !== undefined) edges.push(edge(from, boxes.get(`dyn:${n.name}`)!, 'edge topic-link'))
    }
    for (const s of n.successors) {
      const to = boxes.get(`node:${s}`)
      if (to !== undefined) edges.push(edge(from, to, 'edge'))
    }
    for (const s of n.stores) {
      const st = boxes.get(`store:${s}`)!
      edges.push(`<path class="edge store-link" d="M${from.x + from.w},${from.y + BOX_H / 2} L${st.x},${st.y + BOX_H / 2}"></path>`)
    }
  }
  contentRight = Math.max(contentRight, storeRight)
  const height = Math.max(y, storeBottom) - y0 + PAD - GAP_Y / 2
  const w = contentRight - x0 + PAD
  const title = sub.global ? `Sub-topology: ${sub.id} (global store)` : `Sub-topology: ${sub.id}`
  const markup =
    `<g class="subtopology${sub.global ? ' global' : ''}" data-subtopology="${sub.id}">` +
    `<rect class="frame" x="${x0}" y="${y0}" width="${w}" height="${height}" rx="8"></rect>` +
    `<text class="title" x="${x0 + PAD}" y="${y0 + 17}">${escapeXml(title)}</text>` +
    edges.join('') +
    [...boxes.values()].map(b => b.markup(b.x, b.y)).join('') +
    parts.join('') +
    '</g>'
  return { markup, w, h: height }
}

/** The topology as an inline `<svg>` element (sub-topologies side by side). */
export function topologySvg(view: TopologyView): string {
  const stores = new Map(view.stores.map(s => [s.name, s]))
  let x = 0
  let h = 0
  const groups: string[] = []
  for (const sub of view.subtopologies) {
    const g = drawSubtopology(sub, stores, x, 0)
    groups.push(g.markup)
    x += g.w + 24
    h = Math.max(h, g.h)
  }
  const w = Math.max(x - 24, 10)
  return (
    `<svg class="topology" xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="Topology diagram">` +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">' +
    '<path d="M0,0 L10,5 L0,10 z"></path></marker></defs>' +
    groups.join('') +
    '</svg>'
  )
}
