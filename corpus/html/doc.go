// Package html is the HTML format: it reads a page (an exported wiki, a
// rendered documentation site, a Confluence or Notion export) into the
// chunking.Body the chunker cuts, with the same blocks a Markdown page
// gives: headings open sections, paragraphs, list items (with their "- "
// or "3. " markers), code whole, table rows as "Header: value; …", quotes
// and admonitions. It shows what a reader sees: scripts, styles, comments,
// hidden elements, navigation and the site's header, footer and sidebars
// are blanked, and when the page has a main element, all that is outside
// it. The page's <title>, <meta> description and Open Graph tags,
// canonical link and <html lang> fill the document's title, description,
// source URL and language, as front matter does (which an HTML file may
// also have). It tokenizes with golang.org/x/net/html, the only package
// that imports it, keeping every token's place in the file, so chunks have
// the file's line numbers and byte offsets.
package html
