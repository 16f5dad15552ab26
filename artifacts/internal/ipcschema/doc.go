// Package ipcschema is the Arrow view of a Parquet file's columns, the
// schema Arrow's IPC format carries: the types Arrow readers (pyarrow,
// Polars, arrow-go) give them, written as arrow-go writes them. Its text (Text, Type.String) is arrow-go's
// Schema.String of the file as pqarrow reads it; its ARROW:schema entry
// (Encode) is the key-value entry in which Arrow writers store the schema,
// byte for byte as pqarrow stored it. It knows no Parquet library: the
// Parquet schema is drawn from the same fields elsewhere.
package ipcschema
