// Package columns reads a Parquet column chunk a row at a time, with
// parquet-go's pages: a row's repetition and definition levels (Dremel's
// encoding of its nulls and lists) and its values, copied out of the page,
// whichever pages the row spans. It knows no schema: the caller says what
// a column holds and at which levels, and assembles rows from the columns.
package columns
