// Package site recognises the static-site generator a docs folder was
// written for (Hugo, Docusaurus, MkDocs) and its language folders, from the
// files a generator keeps (hugo.toml, docusaurus.config.js, mkdocs.yml) or,
// for a copied content folder, from the shape of its pages (_index.md,
// _category_.json): what ingest init needs to write a starter config.
package site
