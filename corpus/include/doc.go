// Package include expands the include directives documentation sites
// write, so a chunk holds the code or text the rendered page shows where
// its source has only a marker: PyMdown snippets (--8<-- "file", with line
// ranges and sections), mkdocs-include-markdown and mkdocs-macros
// ({% include "file" %}, {% include-markdown "file" %}), FastAPI's
// {* file hl[3] *} and markdown-include's {!file!}, Hugo's include and
// readfile shortcodes, and MDX's raw imports shown by a CodeBlock
// (import X from '!!raw-loader!./file' with <CodeBlock>{X}</CodeBlock>), and
// mkdocs-codeinclude-plugin's links between <!--codeinclude--> comments
// (a file's brace block or lines). Files are read only from inside the roots it is given
// (the corpus and the folders the config names): no path out of them, by
// "..", an absolute path or a symbolic link, no URL, bounded in size and
// depth, cycles refused. An include that cannot be read leaves a
// diagnostic naming the document and line, and nothing in the text.
package include
