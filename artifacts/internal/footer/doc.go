// Package footer is the output of a Parquet writer that is closed and reset
// after every row group, made into the one file that writer would have
// written had it written every row group: the same bytes, with the memory
// of one row group.
//
// A parquet-go writer keeps every row group's metadata, column index and
// offset index until its Close writes them as the file's page index and
// footer: at 1.5 million rows, 720 row groups of them were half of a run's
// live heap. Here each row group is written by the writer as a file of its
// own (File passes its data pages through, holds what the writer's Close
// adds after them); its column chunks' offsets are moved to where the data
// sits in the whole file, and its column indexes, offset indexes and row
// group metadata are spilled, encoded, to a buffer that moves to a
// temporary file past SpillMemory. Close writes the page index and the
// footer from the spill, in the order and the encoding parquet-go's own
// Close uses.
package footer
