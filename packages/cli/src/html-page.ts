/**
 * The self-contained HTML page of `kstreams describe --format html`: the Mermaid source of the
 * topology in a `<pre class="mermaid">` (a page or viewer that has Mermaid loaded draws it; as
 * it is, it reads as text) and the text description beside it. No script, style sheet or font
 * from anywhere else: the page works offline and under any content security policy. @internal
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, c => ESCAPES[c]!)
}

export function topologyPage(options: { title: string; mermaid: string; text: string }): string {
  const title = escapeHtml(options.title)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2328; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin-top: 2rem; }
  pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 1rem; overflow: auto; font-size: 0.85rem; }
</style>
</head>
<body>
<h1>${title}</h1>
<h2>Diagram (Mermaid)</h2>
<pre class="mermaid">
${escapeHtml(options.mermaid)}</pre>
<h2>Description</h2>
<pre class="topology-description">
${escapeHtml(options.text)}</pre>
</body>
</html>
`
}
