// Minimal server-rendered HTML: escaped values, a phone-friendly layout, no client framework.
import { escapeHtml } from '../../core/html-escape.js'
export { escapeHtml }

/** The look the client-facing pages (quote, invoice) share: phone first, system fonts, cards. */
export const CLIENT_PAGE_STYLE = `
  :root { color-scheme: light; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1b1b1b; background: #f6f7f9; line-height: 1.5; }
  main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
  header { margin-bottom: 1rem; } header p { margin: 0; color: #444; font-size: .95rem; }
  h1 { font-size: 1.4rem; margin: .25rem 0; } h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  .card { background: #fff; border: 1px solid #d9dce1; border-radius: .75rem; padding: 1rem; margin: 1rem 0; }
`

/** What a client page that asks for an answer (quote, job offer) adds: full-width tap targets and a status line. */
export const CLIENT_ANSWER_STYLE = `
  .status { padding: .75rem 1rem; border-radius: .5rem; font-weight: 600; }
  button { width: 100%; min-height: 3rem; font-family: inherit; font-size: 1.1rem; padding: .9rem; margin-top: .75rem; border: 0; border-radius: .5rem; cursor: pointer; }
  button.accept { background: #15803d; color: #fff; } button.decline { background: #fff; color: #7f1d1d; border: 2px solid #7f1d1d; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 0 auto; padding: 1rem; color: #1a1a1a; line-height: 1.5; }
  .banner { background: #fff3cd; border: 1px solid #e0c36a; padding: .5rem .75rem; border-radius: .5rem; font-size: .9rem; }
  .card { border: 1px solid #ddd; border-radius: .75rem; padding: 1rem; margin: 1rem 0; }
  button { font-size: 1.1rem; padding: .75rem 1.25rem; border-radius: .5rem; border: 0; background: #0b5cad; color: #fff; width: 100%; }
  button.secondary { background: #6b6b6b; }
  dt { font-weight: 600; } dd { margin: 0 0 .5rem 0; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`
}

/** The opening of a client page, up to <main>: phone-width viewport, not indexed, its title and style. */
export function clientPageStart(title: string, style: string): string {
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>`
}
