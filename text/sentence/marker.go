package sentence

// MarkerLen is the length of the list-item marker that opens line (its
// indentation gone): "- ", "* ", "+ ", "12. ", "3) ", with the one space or
// tab after it, or a bare marker that ends the line. 0 when the line opens
// no item: "-5 °C" and "1.5 m" are words. One rule for the chunker's
// lead-ins and the header's plain text.
func MarkerLen(line string) int {
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	switch {
	case i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')'):
		i++
	case i == 0 && line != "" && (line[0] == '-' || line[0] == '*' || line[0] == '+'):
		i = 1
	default:
		return 0
	}
	switch {
	case i == len(line):
		return i
	case line[i] == ' ' || line[i] == '\t':
		return i + 1
	}
	return 0
}
