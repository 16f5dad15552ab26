// Package numeral reads the numbers people write before a unit, in English
// and Brazilian-Portuguese text: digits in the text's convention (decimal
// comma and thousands dot in Portuguese), fractions and mixed numbers
// ("7/16", "3 1/4", "2½"), powers of ten ("3×10⁸", "3e8"), magnitudes
// ("1.5k", "5 thousand", "35 mil") and numbers in words of the text's
// language only ("forty-two", "two and a half", "cento e vinte", "meia").
// It knows no units: package units asks a Parser for the numeral at an
// offset and decides whether a unit follows, and what a sign means.
//
// It also owns the byte-level rules both packages read text by, written
// once: a digit, an ASCII letter, the end of a word (letters of any
// script), a byte that continues one, the spaces that may sit between a
// number and its unit (SpaceWidth), and what stands before a number's
// first digit (Standing: an identifier, a date, a port, money, a "+").
//
// A Parser holds one text; its methods take byte offsets into it and
// return spans in it. A numeral's span holds no sign.
package numeral
