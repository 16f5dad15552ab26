package units

import (
	"testing"
)

// TestParseForms pins, one form at a time, what Parse reads: the surface,
// the value in the unit as written, the unit and the SI value.
func TestParseForms(t *testing.T) {
	type q struct {
		surface string
		value   float64
		unit    string
		si      float64
	}
	tests := []struct {
		name, lang, text string
		want             []q
	}{
		// number words
		{"en words", "en", "The swell built to twelve feet.", []q{{"twelve feet", 12, "feet", 3.6576}}},
		{"en hyphenated", "en", "It felt like forty-two fahrenheit.", []q{{"forty-two fahrenheit", 42, "fahrenheit", 50.0 / 9}}},
		{"en hundred and", "en", "one hundred and twenty nautical miles", []q{{"one hundred and twenty nautical miles", 120, "nautical miles", 120 * 1852}}},
		{"en and a half", "en", "two and a half metres", []q{{"two and a half metres", 2.5, "metres", 2.5}}},
		{"en point", "en", "two point five metres", []q{{"two point five metres", 2.5, "metres", 2.5}}},
		{"en half a", "en", "half a mile", []q{{"half a mile", 0.5, "mile", 804.672}}},
		{"en quarters of a", "en", "three quarters of a mile", []q{{"three quarters of a mile", 0.75, "mile", 0.75 * 1609.344}}},
		{"en a hundred", "en", "a hundred metres", []q{{"a hundred metres", 100, "metres", 100}}},
		{"en a mile and a half", "en", "A mile and a half of sand", []q{{"A mile and a half", 1.5, "mile", 1.5 * 1609.344}}},
		{"en a mile alone", "en", "a mile of sand", nil},
		{"pt palavras", "pt", "Ondas de dois metros.", []q{{"dois metros", 2, "metros", 2}}},
		{"pt cento e vinte", "pt", "cento e vinte graus", []q{{"cento e vinte graus", 120, "graus", 120}}},
		{"pt meia", "pt", "meia milha", []q{{"meia milha", 0.5, "milha", 804.672}}},
		{"pt dois mil", "pt", "dois mil metros", []q{{"dois mil metros", 2000, "metros", 2000}}},
		{"pt e meio", "pt", "dois metros e meio", []q{{"dois metros e meio", 2.5, "metros", 2.5}}},
		{"pt quartos de", "pt", "três quartos de milha", []q{{"três quartos de milha", 0.75, "milha", 0.75 * 1609.344}}},
		{"pt vírgula", "pt", "dois vírgula cinco metros", []q{{"dois vírgula cinco metros", 2.5, "metros", 2.5}}},
		{"pt range in words", "pt", "ondas de quatro a seis pés", []q{{"quatro", 4, "pés", 1.2192}, {"seis pés", 6, "pés", 1.8288}}},
		{"pt article is no number", "pt", "uma onda grande", nil},
		{"en words without unit", "en", "Two lifeguards and three volunteers.", nil},
		// temperatures and signs
		{"minus word", "en", "minus 40 Fahrenheit", []q{{"minus 40 Fahrenheit", -40, "Fahrenheit", -40}}},
		{"menos", "pt", "fez menos 4 graus", []q{{"menos 4 graus", -4, "graus", -4}}},
		{"mais ou menos", "pt", "mais ou menos 20 graus", []q{{"20 graus", 20, "graus", 20}}},
		{"below zero", "pt", "6 graus abaixo de zero", []q{{"6 graus abaixo de zero", -6, "graus", -6}}},
		{"negativos", "pt", "10 graus negativos", []q{{"10 graus negativos", -10, "graus", -10}}},
		{"plus sign", "en", "Air +5° at dawn.", []q{{"+5°", 5, "°", 5}}},
		{"plus is a phone code", "en", "Dial +55 48 3222 0000.", nil},
		{"lower-case c", "pt", "água a 18 °c", []q{{"18 °c", 18, "°c", 18}}},
		{"deg F", "en", "75 deg F", []q{{"75 deg F", 75, "deg F", 75.0*5/9 - 32.0*5/9}}},
		{"degC", "en", "21 degC", []q{{"21 degC", 21, "degC", 21}}},
		{"misspelt", "en", "It is 15 celsious.", []q{{"15 celsious", 15, "celsious", 15}}},
		{"centigrados", "pt", "15 centigrados", []q{{"15 centigrados", 15, "centigrados", 15}}},
		// fractions, notation, magnitudes
		{"mixed number", "en", "3 1/4 miles", []q{{"3 1/4 miles", 3.25, "miles", 3.25 * 1609.344}}},
		{"fraction de", "pt", "3/4 de milha", []q{{"3/4 de milha", 0.75, "milha", 0.75 * 1609.344}}},
		{"fraction in", "en", "a 7/16 in wrench", []q{{"7/16 in", 0.4375, "in", 0.4375 * 0.0254}}},
		{"unicode fraction", "en", "½ mile", []q{{"½ mile", 0.5, "mile", 804.672}}},
		{"glued unicode", "en", "2½ miles", []q{{"2½ miles", 2.5, "miles", 2.5 * 1609.344}}},
		{"wetsuit is no fraction", "pt", "roupa 4/3 mm", nil},
		{"date is no fraction", "en", "on 12/05 at 3 m", []q{{"3 m", 3, "m", 3}}},
		{"times ten", "en", "3×10⁸ m/s", []q{{"3×10⁸ m/s", 3e8, "m/s", 3e8}}},
		{"caret", "en", "1.5 x 10^3 m/s", []q{{"1.5 x 10^3 m/s", 1500, "m/s", 1500}}},
		{"e notation", "en", "3e8 m/s", []q{{"3e8 m/s", 3e8, "m/s", 3e8}}},
		{"k with unit", "en", "1.5k feet", []q{{"1.5k feet", 1500, "feet", 457.2}}},
		{"k race", "en", "I ran a 5k today.", []q{{"5k", 5, "k", 5000}}},
		{"k views", "en", "It got 5k views.", nil},
		{"thousand", "en", "35 thousand feet", []q{{"35 thousand feet", 35000, "feet", 35000 * 0.3048}}},
		{"mil", "pt", "35 mil pés", []q{{"35 mil pés", 35000, "pés", 35000 * 0.3048}}},
		// primes and compounds
		{"prime", "en", "a 9′ wave", []q{{"9′", 9, "′", 9 * 0.3048}}},
		{"feet and inches", "en", `the board is 6' 2".`, []q{{`6' 2"`, 6 + 2.0/12, "'", 1.8796}}},
		{"quote is no inch", "en", `she said "12" and left`, nil},
		{"time is no height", "en", `the clock showed 2' 30" left`, nil},
		{"coordinate", "pt", "a 27°35′S", nil},
		{"yards feet inches", "en", "3 yards 2 ft 4 inches", []q{{"3 yards 2 ft 4 inches", 3 + 2.0/3 + 4.0/36, "yards", 3.4544}}},
		{"ft in", "en", "He is 5 ft 8 in tall.", []q{{"5 ft 8 in", 5 + 8.0/12, "ft", 1.7272}}},
		{"metre and centimetres", "en", "1 m 75", []q{{"1 m 75", 1.75, "m", 1.75}}},
		{"glued metre", "pt", "Ela mede 1m68.", []q{{"1m68", 1.68, "m", 1.68}}},
		{"um metro e setenta", "pt", "um metro e setenta", []q{{"um metro e setenta", 1.7, "metro", 1.7}}},
		{"six foot four", "en", "He stands six foot four.", []q{{"six foot four", 6 + 4.0/12, "foot", 1.9304}}},
		{"list is no compound", "en", "2 ft, 3 ft and 4 ft", []q{{"2 ft", 2, "ft", 0.6096}, {"3 ft", 3, "ft", 0.9144}, {"4 ft", 4, "ft", 1.2192}}},
		{"count is no part", "en", "2 m 15 seconds", []q{{"2 m", 2, "m", 2}}},
		// adjectives
		{"adjective words", "en", "a nine-mile run", []q{{"nine-mile", 9, "mile", 9 * 1609.344}}},
		{"adjective fraction word", "en", "the half-mile trail", []q{{"half-mile", 0.5, "mile", 804.672}}},
		{"pt de", "pt", "uma onda de três metros", []q{{"três metros", 3, "metros", 3}}},
		// areas and letters that are not units here
		{"area", "en", "2 km² of dunes", nil},
		{"area words", "pt", "19 quilômetros quadrados", nil},
		{"acceleration", "en", "9.8 m/s²", nil},
		{"farad", "en", "a 10 F supercapacitor", nil},
		{"coulomb", "en", "a charge of 3 C", nil},
		{"kiloton", "en", "a 20 kt yield", nil},
		{"kuna", "en", "200 kn for dinner", nil},
		{"kilonewton", "en", "rated at 200 kN", nil},
		{"million users", "en", "40m users", nil},
		{"million money", "en", "revenue grew to 40m", nil},
		{"metres glued", "en", "The turtle swam 40m in a minute.", []q{{"40m", 40, "m", 40}}},
		{"filing", "en", "the 10-K filing", nil},
		{"grade", "en", "Grade 3C students", nil},
		{"rotate", "en", "rotate 45°", nil},
		{"rope", "pt", "Dê 3 nós na corda.", nil},
		{"body", "pt", "com os dois pés na areia", nil},
		{"academic", "en", "He holds two degrees in oceanography.", nil},
		{"knots", "en", "The wind blew 20 kt all day.", []q{{"20 kt", 20, "kt", 20 * 1852.0 / 3600}}},
		// numbers that are not measurements, from real text (issue 24)
		{"host and port before a quote", "en", "- gRPC: `\"http://localhost:4317\"`", nil},
		{"port before a quote", "pt", "`export OTEL_EXPORTER_OTLP_ENDPOINT=\"https://my-api-endpoint:443\"`", nil},
		{"inches after a quote of their own", "en", "a 14\" board", []q{{"14\"", 14, "\"", 14 * 0.0254}}},
		{"CPU model", "en", "an Intel Xeon Platinum 8581C system with 16 cores", nil},
		{"CPU model Fahrenheit letter", "en", "the 9950F chip", nil},
		{"letter Celsius", "en", "It was 25C at noon.", []q{{"25C", 25, "C", 25}}},
		{"letter Fahrenheit", "en", "The pool was 86F.", []q{{"86F", 86, "F", 30}}},
		{"minutes after timeout", "en", "a longer timeout (~60m or more)", nil},
		{"minutes restated", "en", "at least 1 minute (1m)", nil},
		{"minutes after interval", "en", "The scrape interval is 15s and the timeout 1m.", nil},
		{"minutes in a PromQL range", "en", "rate(MyFruitCounter_total[5m])", nil},
		{"minutes after intervalo", "pt", "Defina o intervalo 5m no coletor.", nil},
		{"metres glued after a verb", "pt", "A tartaruga nadou 40m em um minuto.", []q{{"40m", 40, "m", 40}}},
		{"metres restated in brackets", "en", "5 ft [1.52 m]", []q{{"5 ft", 5, "ft", 1.524}, {"1.52 m", 1.52, "m", 1.52}}},
		{"English unit word after a Portuguese article", "pt", "Um Meter Provider é uma fábrica de medidores.", nil},
		{"English unit word after a Portuguese number", "pt", "Em alguns SDKs, um meter provider global já é inicializado.", nil},
		{"Portuguese unit word after digits", "pt", "uma onda de 2 metros", []q{{"2 metros", 2, "metros", 2}}},
		{"English unit word after digits in Portuguese", "pt", "o recorde de 24 meters", []q{{"24 meters", 24, "meters", 24}}},
		{"um grau of sophistication", "pt", "permite um grau muito maior de sofisticação", nil},
		{"one degree of freedom", "en", "a model with one degree of freedom", nil},
		{"um grau of temperature", "pt", "A temperatura da água subiu um grau.", []q{{"um grau", 1, "grau", 1}}},
		{"dois graus", "pt", "A água esfriou dois graus.", []q{{"dois graus", 2, "graus", 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.text, Options{Lang: tt.lang})
			if len(got) != len(tt.want) {
				t.Fatalf("got %d quantities %q, want %d", len(got), surfaces(got), len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Surface != w.surface || g.Unit != w.unit {
					t.Errorf("[%d] got %q in %q, want %q in %q", i, g.Surface, g.Unit, w.surface, w.unit)
				}
				if !nearSI(g.Value, w.value) || !nearSI(g.SIValue, w.si) {
					t.Errorf("[%d] %q: got value %v (SI %v), want %v (SI %v)", i, g.Surface, g.Value, g.SIValue, w.value, w.si)
				}
			}
		})
	}
}
