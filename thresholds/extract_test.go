package thresholds

import (
	"math"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// chunkOf builds a chunk as the chunker would, starting at line 10.
func chunkOf(text string, lang schema.Lang) schema.Chunk {
	return schema.Chunk{
		DocPath:     "safety/rules.md",
		SectionPath: []string{"Rules"},
		Lang:        lang,
		Element:     schema.ElementParagraph,
		Text:        text,
		LineStart:   10,
		ContentHash: "abc123",
	}
}

func extract(c schema.Chunk) []schema.Threshold {
	return Extract(c, units.Parse(c.Text, units.Options{Lang: string(c.Lang)}))
}

type want struct {
	subject, comparator string
	value, value2       float64
	surface, hazard     string
}

const (
	knot = 1852.0 / 3600
	foot = 0.3048
)

func TestExtract(t *testing.T) {
	en, pt := schema.LangEN, schema.LangPT
	tests := []struct {
		name string
		lang schema.Lang
		text string
		want []want
	}{
		// English comparators
		{"en above", en, "Waves above 1.5 m are dangerous for beginners.", []want{{SubjectWaveHeight, "above", 1.5, 0, "1.5 m", "dangerous for beginners"}}},
		{"en over", en, "Do not paddle out when the surf is over 6 ft.", []want{{SubjectWaveHeight, "above", 6 * foot, 0, "6 ft", ""}}},
		{"en more than", en, "Winds of more than 25 knots make the bay unsafe.", []want{{SubjectWindSpeed, "above", 25 * knot, 0, "25 knots", "unsafe"}}},
		{"en greater than", en, "Swell greater than 2 m closes the beach.", []want{{SubjectWaveHeight, "above", 2, 0, "2 m", ""}}},
		{"en exceeds", en, "When the wind exceeds 20 kn, flags go red.", []want{{SubjectWindSpeed, "above", 20 * knot, 0, "20 kn", ""}}},
		{"en exceeding", en, "Gusts exceeding 60 km/h are a hazard to kites.", []want{{SubjectWindSpeed, "above", 60 / 3.6, 0, "60 km/h", "hazard to kites"}}},
		{"en higher than", en, "Surf higher than 3 ft is not recommended for children.", []want{{SubjectWaveHeight, "above", 3 * foot, 0, "3 ft", "not recommended for children"}}},
		{"en at least", en, "Keep at least 50 metres from the rocks.", []want{{SubjectDistance, "at_least", 50, 0, "50 metres", ""}}},
		{"en minimum of", en, "Stay a minimum of 100 m from shore when kiting.", []want{{SubjectDistance, "at_least", 100, 0, "100 m", ""}}},
		{"en below", en, "Water below 15 °C brings a risk of cold shock.", []want{{SubjectWaterTemperature, "below", 15, 0, "15 °C", "risk of cold shock"}}},
		{"en under", en, "Children should stay in water under 1 m deep.", []want{{SubjectWaterDepth, "below", 1, 0, "1 m", ""}}},
		{"en less than", en, "Air temperatures of less than 10 °C chill wet swimmers.", []want{{SubjectAirTemperature, "below", 10, 0, "10 °C", ""}}},
		{"en lower than", en, "Sea temperature lower than 18 °C shortens safe swim time.", []want{{SubjectWaterTemperature, "below", 18, 0, "18 °C", ""}}},
		{"en up to", en, "Rip currents of up to 2 m/s are dangerous even for strong swimmers.", []want{{SubjectCurrentSpeed, "at_most", 2, 0, "2 m/s", "dangerous even for strong"}}},
		{"en at most", en, "Beginners should swim at most 50 m from the beach.", []want{{SubjectDistance, "at_most", 50, 0, "50 m", ""}}},
		{"en no more than", en, "Swim no more than 30 m from shore.", []want{{SubjectDistance, "at_most", 30, 0, "30 m", ""}}},
		{"en maximum of", en, "Lessons run in wind of a maximum of 15 kn.", []want{{SubjectWindSpeed, "at_most", 15 * knot, 0, "15 kn", ""}}},
		{"en between", en, "Water between 15 and 18 °C can cause hypothermia within an hour.", []want{{SubjectWaterTemperature, "between", 15, 18, "15 and 18 °C", "hypothermia within an hour"}}},
		{"en between units", en, "Waves between 1 m and 2 m suit improvers.", []want{{SubjectWaveHeight, "between", 1, 2, "1 m and 2 m", ""}}},
		{"en or more", en, "Rip currents of 1 m/s or more outpace strong swimmers.", []want{{SubjectCurrentSpeed, "at_least", 1, 0, "1 m/s", ""}}},
		{"en or less", en, "Water of 12 °C or less causes cold shock.", []want{{SubjectWaterTemperature, "at_most", 12, 0, "12 °C", "cold shock"}}},
		{"en feet per second", en, "Rip currents of up to 8 feet per second are a drowning risk.", []want{{SubjectCurrentSpeed, "at_most", 8 * foot, 0, "8 feet per second", "drowning risk"}}},
		{"en hedge", en, "Waves above about 2 m are dangerous on the bar.", []want{{SubjectWaveHeight, "above", 2, 0, "2 m", "dangerous on the bar"}}},
		{"en equivalent counted once", en, "Surf above 5 ft [1.52 m] is dangerous.", []want{{SubjectWaveHeight, "above", 5 * foot, 0, "5 ft", "dangerous"}}},
		{"en waist deep", en, "Do not let children go into water deeper than 0.8 m (waist-deep on an adult).", []want{{SubjectWaterDepth, "above", 0.8, 0, "0.8 m", ""}}},
		{"en two in one sentence", en, "Never swim more than 50 m from shore when waves are above 2 m.", []want{
			{SubjectDistance, "above", 50, 0, "50 m", ""}, {SubjectWaveHeight, "above", 2, 0, "2 m", ""}}},
		{"en heat", en, "Heat above 35 °C brings a risk of heatstroke.", []want{{SubjectAirTemperature, "above", 35, 0, "35 °C", "risk of heatstroke"}}},
		// Portuguese comparators
		{"pt acima de", pt, "Ondas acima de 1,5 m são perigosas para iniciantes.", []want{{SubjectWaveHeight, "above", 1.5, 0, "1,5 m", "perigosas para iniciantes"}}},
		{"pt acima dos", pt, "Com vento acima dos 20 nós, não entre no mar.", []want{{SubjectWindSpeed, "above", 20 * knot, 0, "20 nós", ""}}},
		{"pt mais de", pt, "Rajadas de mais de 60 km/h derrubam guarda-sóis.", []want{{SubjectWindSpeed, "above", 60 / 3.6, 0, "60 km/h", ""}}},
		{"pt superior a", pt, "Ondulação superior a 2 m fecha a praia.", []want{{SubjectWaveHeight, "above", 2, 0, "2 m", ""}}},
		{"pt maior que", pt, "Correnteza maior que 1 m/s é perigosa.", []want{{SubjectCurrentSpeed, "above", 1, 0, "1 m/s", "perigosa"}}},
		{"pt a partir de", pt, "A partir de 25 nós de vento, a bandeira é vermelha.", []want{{SubjectWindSpeed, "at_least", 25 * knot, 0, "25 nós", ""}}},
		{"pt pelo menos", pt, "Mantenha pelo menos 50 metros das pedras.", []want{{SubjectDistance, "at_least", 50, 0, "50 metros", ""}}},
		{"pt no minimo", pt, "Fique no mínimo 200 m da praia com o jet ski.", []want{{SubjectDistance, "at_least", 200, 0, "200 m", ""}}},
		{"pt abaixo de", pt, "Água abaixo de 18 °C traz risco de hipotermia.", []want{{SubjectWaterTemperature, "below", 18, 0, "18 °C", "risco de hipotermia"}}},
		{"pt abaixo dos", pt, "Com a água abaixo dos 16 °C, use roupa de borracha.", []want{{SubjectWaterTemperature, "below", 16, 0, "16 °C", ""}}},
		{"pt menos de", pt, "Em profundidade de menos de 1 m, não mergulhe de cabeça.", []want{{SubjectWaterDepth, "below", 1, 0, "1 m", ""}}},
		{"pt inferior a", pt, "Temperatura do ar inferior a 15 °C exige cuidado.", []want{{SubjectAirTemperature, "below", 15, 0, "15 °C", ""}}},
		{"pt menor que", pt, "Ondas menores que 1 m são ideais para aulas.", []want{{SubjectWaveHeight, "below", 1, 0, "1 m", ""}}},
		{"pt ate", pt, "Nade até 50 m da areia.", []want{{SubjectDistance, "at_most", 50, 0, "50 m", ""}}},
		{"pt no maximo", pt, "Crianças devem entrar no máximo até 0,5 m de profundidade.", []want{{SubjectWaterDepth, "at_most", 0.5, 0, "0,5 m", ""}}},
		{"pt entre", pt, "Água entre 15 e 18 °C pode causar choque térmico.", []want{{SubjectWaterTemperature, "between", 15, 18, "15 e 18 °C", "choque térmico"}}},
		{"pt entre ventos", pt, "Ventos entre 10 e 15 nós são bons para iniciantes no kite.", []want{{SubjectWindSpeed, "between", 10 * knot, 15 * knot, "10 e 15 nós", ""}}},
		{"pt ou mais", pt, "Ondas de 2 m ou mais: só surfistas experientes.", []want{{SubjectWaveHeight, "at_least", 2, 0, "2 m", "surfistas experientes"}}},
		{"pt ou menos", pt, "Mar a 14 °C ou menos causa hipotermia rapidamente.", []want{{SubjectWaterTemperature, "at_most", 14, 0, "14 °C", "hipotermia rapidamente"}}},
		{"pt calor", pt, "Calor acima de 35 °C aumenta o risco de insolação.", []want{{SubjectAirTemperature, "above", 35, 0, "35 °C", "risco de insolação"}}},
		{"pt graus", pt, "Com a água abaixo de 17 graus, limite o tempo de banho.", []want{{SubjectWaterTemperature, "below", 17, 0, "17 graus", ""}}},
		{"pt correnteza nos", pt, "Correnteza que passa de 2 nós na vazante é perigosa para banhistas.", []want{{SubjectCurrentSpeed, "above", 2 * knot, 0, "2 nós", "perigosa para banhistas"}}},
		// Bounds written after the number (issue 24)
		{"en or more after a restatement", en, "Gusts of 35 knots (about 65 km/h) or more make it unsafe to launch a kite.", []want{{SubjectWindSpeed, "at_least", 35 * knot, 0, "35 knots", "unsafe to launch a"}}},
		{"en or higher", en, "Stay on the beach when waves are 2 m or higher.", []want{{SubjectWaveHeight, "at_least", 2, 0, "2 m", ""}}},
		{"en or above", en, "Red flags are raised with winds of 25 knots or above.", []want{{SubjectWindSpeed, "at_least", 25 * knot, 0, "25 knots", ""}}},
		{"en and above", en, "Dinghies need a rescue boat in winds of 15 knots and above.", []want{{SubjectWindSpeed, "at_least", 15 * knot, 0, "15 knots", ""}}},
		{"en or faster", en, "A rip current of 0.5 m/s or faster is dangerous for children.", []want{{SubjectCurrentSpeed, "at_least", 0.5, 0, "0.5 m/s", "dangerous for children"}}},
		{"en or stronger", en, "Paddleboards must stay ashore when the offshore wind is 20 knots or stronger.", []want{{SubjectWindSpeed, "at_least", 20 * knot, 0, "20 knots", ""}}},
		{"en or lower", en, "Water of 16 °C or lower can cause cold shock.", []want{{SubjectWaterTemperature, "at_most", 16, 0, "16 °C", "cold shock"}}},
		{"en or colder", en, "Never swim without a wetsuit in water of 10 °C or colder.", []want{{SubjectWaterTemperature, "at_most", 10, 0, "10 °C", ""}}},
		{"en or below", en, "Children may swim when the surf is 1 m or below.", []want{{SubjectWaveHeight, "at_most", 1, 0, "1 m", ""}}},
		{"en at most after", en, "Beginners should stay in waves of 1 m at most.", []want{{SubjectWaveHeight, "at_most", 1, 0, "1 m", ""}}},
		{"en at least after", en, "Keep 30 m at least from the rocks.", []want{{SubjectDistance, "at_least", 30, 0, "30 m", ""}}},
		{"en deep or more", en, "Dive only where the water is 2 m deep or more.", []want{{SubjectWaterDepth, "at_least", 2, 0, "2 m", ""}}},
		{"en at least needs", en, "Kitesurfing lessons need a wind of at least 12 knots.", []want{{SubjectWindSpeed, "at_least", 12 * knot, 0, "12 knots", ""}}},
		{"en no less than", en, "Keep no less than 30 m between you and the rocks.", []want{{SubjectDistance, "at_least", 30, 0, "30 m", ""}}},
		{"pt ou mais ventos", pt, "Ventos de 30 nós ou mais são perigosos para velejadores.", []want{{SubjectWindSpeed, "at_least", 30 * knot, 0, "30 nós", "perigosos para velejadores"}}},
		{"pt ou superiores", pt, "Barcos a vela precisam de bote de apoio com ventos de 15 nós ou superiores.", []want{{SubjectWindSpeed, "at_least", 15 * knot, 0, "15 nós", ""}}},
		{"pt no minimo after", pt, "Com vento de 25 nós no mínimo, a bandeira vermelha é hasteada.", []want{{SubjectWindSpeed, "at_least", 25 * knot, 0, "25 nós", ""}}},
		{"pt no maximo after", pt, "Ondas de 3 m no máximo são seguras para surfistas experientes.", []want{{SubjectWaveHeight, "at_most", 3, 0, "3 m", "surfistas experientes"}}},
		{"pt para cima", pt, "Vento de 20 nós para cima é perigoso para stand up paddle.", []want{{SubjectWindSpeed, "at_least", 20 * knot, 0, "20 nós", "perigoso para stand up"}}},
		{"pt para baixo", pt, "Crianças só devem entrar no mar com ondas de 1 m para baixo.", []want{{SubjectWaveHeight, "at_most", 1, 0, "1 m", ""}}},
		{"pt ou mais fria", pt, "Nunca nade sem roupa de borracha em água de 10 °C ou mais fria.", []want{{SubjectWaterTemperature, "at_most", 10, 0, "10 °C", ""}}},
		{"pt ou mais quente", pt, "Evite a praia ao meio-dia quando o ar estiver a 35 °C ou mais quente.", []want{{SubjectAirTemperature, "at_least", 35, 0, "35 °C", ""}}},
		{"pt a partir de vento", pt, "A partir de 20 nós de vento, o kitesurf é só para experientes.", []want{{SubjectWindSpeed, "at_least", 20 * knot, 0, "20 nós", "experientes"}}},
		{"pt de profundidade ou mais", pt, "Só mergulhe onde a água tiver 2 m de profundidade ou mais.", []want{{SubjectWaterDepth, "at_least", 2, 0, "2 m", ""}}},
		{"pt dias", pt, "Em dias de 32 °C ou mais, beba água e evite o sol do meio-dia.", []want{{SubjectAirTemperature, "at_least", 32, 0, "32 °C", ""}}},
		// Ranges (issue 24)
		{"en between suits", en, "A swell between 1 and 2 m suits beginners.", []want{{SubjectWaveHeight, "between", 1, 2, "1 and 2 m", ""}}},
		{"en en dash range", en, "Waves of 1–2 m are ideal for a first surf lesson.", []want{{SubjectWaveHeight, "between", 1, 2, "1–2 m", ""}}},
		{"en from to range", en, "From 2 to 3 m, the shore break is dangerous for bodyboarders.", []want{{SubjectWaveHeight, "between", 2, 3, "2 to 3 m", "dangerous for bodyboarders"}}},
		{"en range with a directive", en, "Limit swims to 20 minutes in water of 15–18 °C.", []want{{SubjectWaterTemperature, "between", 15, 18, "15–18 °C", ""}}},
		{"en range restated", en, "Wear a wetsuit when the water is between 16 and 19 °C (61–66 °F).", []want{{SubjectWaterTemperature, "between", 16, 19, "16 and 19 °C", ""}}},
		{"pt entre graus", pt, "Com a água entre 18 e 22 °C, use roupa de borracha de 3 mm.", []want{{SubjectWaterTemperature, "between", 18, 22, "18 e 22 °C", ""}}},
		{"pt de a range", pt, "De 2 a 3 m, as ondas são perigosas para iniciantes.", []want{{SubjectWaveHeight, "between", 2, 3, "2 a 3 m", "perigosas para iniciantes"}}},
		{"pt en dash range", pt, "Ondas de 1–2 m são ideais para a primeira aula de surfe.", []want{{SubjectWaveHeight, "between", 1, 2, "1–2 m", ""}}},
		{"pt range with a directive", pt, "Limite o banho a 20 minutos em água de 15 a 18 °C.", []want{{SubjectWaterTemperature, "between", 15, 18, "15 a 18 °C", ""}}},
		// Bounds after the number that state no limit
		{"en or more history", en, "Waves of 4 m or more were recorded during the June storm.", nil},
		{"en or less measurement", en, "The lagoon is 2 m deep or less in most places.", nil},
		{"en at most quantifier", en, "Surf of 1 m at most beaches is fine for children.", nil},
		{"en or so", en, "Stay out when the waves reach 2 m or so.", nil},
		{"pt no maximo measurement", pt, "A baía tem no máximo 10 m de profundidade.", nil},
		{"pt ou mais history", pt, "Ventos de 20 nós ou mais sopraram por três dias na semana passada.", nil},
		{"pt range description", pt, "Ondas de 2 a 3 m só no fim de semana.", nil},
		{"pt range phone", pt, "Ondas de 1 a 2 m no verão; ligue 193.", nil},
		// A plain range with a consequence
		{"en range with a consequence", en, "Waves of 2-3 m are dangerous for beginners.", []want{{SubjectWaveHeight, "between", 2, 3, "2-3 m", "dangerous for beginners"}}},
		{"pt range with a consequence", pt, "Ondas de 2 a 3 m são perigosas para iniciantes.", []want{{SubjectWaveHeight, "between", 2, 3, "2 a 3 m", "perigosas para iniciantes"}}},
		// A length takes its subject from the noun it measures, not its
		// unit: a wetsuit's thickness is no depth (issue 32)
		{"en wetsuit of at least", en, "Wear a wetsuit of at least 3 mm.", []want{{SubjectWetsuitThickness, "at_least", 0.003, 0, "3 mm", ""}}},
		{"en wetsuit thick", en, "In water below 18 °C, wear a wetsuit at least 3 mm thick.", []want{
			{SubjectWaterTemperature, "below", 18, 0, "18 °C", ""}, {SubjectWetsuitThickness, "at_least", 0.003, 0, "3 mm", ""}}},
		{"en wetsuit before the water", en, "A wetsuit of at least 3 mm is needed when the water is cold.", []want{{SubjectWetsuitThickness, "at_least", 0.003, 0, "3 mm", ""}}},
		{"en a 3 mm wetsuit for the water", en, "Below 18 °C, wear a 3 mm wetsuit.", []want{{SubjectWaterTemperature, "below", 18, 0, "18 °C", ""}}},
		{"en wetsuit and waves", en, "Wear a wetsuit when waves are above 2 m.", []want{{SubjectWaveHeight, "above", 2, 0, "2 m", ""}}},
		{"pt neoprene de pelo menos", pt, "Use roupa de neoprene de pelo menos 3 mm.", []want{{SubjectWetsuitThickness, "at_least", 0.003, 0, "3 mm", ""}}},
		{"pt espessura", pt, "Use roupa de neoprene com no mínimo 3 mm de espessura quando a água estiver fria.", []want{{SubjectWetsuitThickness, "at_least", 0.003, 0, "3 mm", ""}}},
		{"pt roupa de borracha", pt, "Nunca entre sem roupa de borracha de no mínimo 4 mm no inverno.", []want{{SubjectWetsuitThickness, "at_least", 0.004, 0, "4 mm", ""}}},
		{"pt neoprene de 3 mm", pt, "Com a água abaixo de 18 °C, use roupa de neoprene de 3 mm.", []want{{SubjectWaterTemperature, "below", 18, 0, "18 °C", ""}}},
		{"pt depth stays", pt, "Não mergulhe onde a água tiver menos de 3 m de profundidade.", []want{{SubjectWaterDepth, "below", 3, 0, "3 m", ""}}},
		// Nothing to extract
		{"pt phone", pt, "Em emergência ligue 193.", nil},
		{"pt year", pt, "Em 2019 a praia foi interditada.", nil},
		{"pt no comparator", pt, "Ondas de 1,5 m hoje no Campeche.", nil},
		{"pt plain range", pt, "Ondas de 2 a 3 m no fim de semana.", nil},
		{"pt nivel", pt, "Alerta nível 3 acima do normal.", nil},
		{"en no comparator", en, "Surf 4 ft at the point this morning.", nil},
		{"en plain range", en, "Waves 2–3 m expected.", nil},
		{"en comparator without unit", en, "More than 80% of rescues are in rips.", nil},
		{"en time", en, "Lifeguards on duty until 18:00.", nil},
		{"en comparator far away", en, "Above all, remember the waves today are 2 m.", nil},
		// A comparator without a limit: measurements, history, comparisons,
		// descriptions and facts
		{"en measurement", en, "The pier is more than 300 m long.", nil},
		{"en measurement deeper", en, "The bay is deeper than 10 m in the middle.", nil},
		{"en history", en, "In 2019 the water was above 25 °C for most of February.", nil},
		{"en history past tense", en, "Gusts of over 80 km/h were recorded at the airport.", nil},
		{"en comparison", en, "The difference between the two beaches can exceed 4 °C.", nil},
		{"en tidal range", en, "The astronomical tidal range is small, usually under 1 m even at spring tides.", nil},
		{"en description", en, "It often stays below 20 °C even in summer, cold enough to cause cold shock.", nil},
		{"en fact", en, "Rip currents can flow at up to 2 m/s.", nil},
		{"en plain range with a hazard word", en, "Experienced surfers handle 2–3 m on a good day.", nil},
		{"en description between", en, "The water is cold for an ocean beach, usually between 18 and 22 °C in summer.", nil},
		{"pt measurement", pt, "O píer tem mais de 300 m de comprimento.", nil},
		{"pt history", pt, "Em 2024, por exemplo, houve aviso de ressaca com ondas de até 3,5 m.", nil},
		{"pt history ontem", pt, "Ontem a temperatura passou de 38 °C em Florianópolis.", nil},
		{"pt comparison", pt, "No mesmo dia, a diferença entre o norte e o leste pode passar de 3 °C.", nil},
		{"pt description", pt, "A água da Joaquina é das mais frias da Ilha, muitas vezes abaixo de 20 °C mesmo no verão.", nil},
		{"pt description em geral", pt, "A amplitude é pequena, em geral menor que 1 m mesmo na sizígia.", nil},
		{"pt fact", pt, "A correnteza pode passar de 2 nós na vazante.", nil},
		{"pt description between", pt, "No verão a água chega a ficar entre 25 e 27 °C.", nil},
		{"pt table cell of prose", pt, "Mês: Outubro; Observação: Nordeste mais constante, com água entre 18 e 19 °C.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extract(chunkOf(tt.text, tt.lang))
			if len(got) != len(tt.want) {
				t.Fatalf("got %d thresholds %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Subject != w.subject || g.Comparator != w.comparator {
					t.Errorf("[%d] got %s %s, want %s %s", i, g.Subject, g.Comparator, w.subject, w.comparator)
				}
				if !near(g.Value, w.value) || math.Abs(g.Value-w.value) > 1e-9 || math.Abs(g.Value2-w.value2) > 1e-9 {
					t.Errorf("[%d] got values %v, %v, want %v, %v", i, g.Value, g.Value2, w.value, w.value2)
				}
				if g.Surface != w.surface {
					t.Errorf("[%d] got surface %q, want %q", i, g.Surface, w.surface)
				}
				if g.Hazard != w.hazard {
					t.Errorf("[%d] got hazard %q, want %q", i, g.Hazard, w.hazard)
				}
			}
		})
	}
}
