// The page frame every server-rendered page shares: language, viewport, title and styles.
import { type Html, html, inlineStyle } from './html.js';

const STYLE = inlineStyle(`
:root { color-scheme: light; --fg: #1b1f24; --muted: #4d5661; --accent: #0b5cad; --line: #c9d1da; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: #fff; }
header.site { padding: .75rem 1rem; border-bottom: 1px solid var(--line); display: flex; gap: 1rem; align-items: center; }
header.site a { color: var(--fg); font-weight: 600; text-decoration: none; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select, textarea { font: inherit; padding: .45rem .5rem; border: 1px solid var(--muted); border-radius: 4px; width: 100%; max-width: 32rem; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: #fff; color: var(--accent); }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.muted { color: var(--muted); }
.error { color: #a4000f; font-weight: 600; }
code { background: #f1f3f5; padding: 0 .25rem; border-radius: 3px; }
input.narrow { max-width: 8rem; }
pre.wrap { white-space: pre-wrap; }
iframe.mail-frame { width: 100%; min-height: 24rem; border: 1px solid var(--line); }
`);

export function page(title: string, body: Html | Html[], options: { lang?: string } = {}): string {
  return html`<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Survey Service</title>
${STYLE}
</head>
<body>
<header class="site"><a href="/">Survey Service</a><a href="/docs">API docs</a></header>
<main id="main">
${body}
</main>
</body>
</html>`.value;
}
