package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// filler returns upstream's random filler with values the types' JSON forms can hold: times in
// years 1–9999, quantities Go parses, JSON blobs that are JSON, consistent IntOrString and
// JSONSchemaProps* unions. Everything else is random across its Go type's whole range.
func filler(seed int64) *randfill.Filler {
	return randfill.New().RandSource(rand.NewSource(seed)).NilChance(0.3).NumElements(0, 2).MaxDepth(7).Funcs(
		func(s *string, c randfill.Continue) { *s = randString(c) },
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Unix(randSeconds(c.Rand), 0) },
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(time.Unix(randSeconds(c.Rand), c.Rand.Int63n(1e6)*1e3))
		},
		func(q *resource.Quantity, c randfill.Continue) { *q = randQuantity(c.Rand) },
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Rand.Int31() - c.Rand.Int31())
			} else {
				*v = intstr.FromString(c.String(0))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) { r.Raw = randJSON(c, true) },
		func(j *apiextv1.JSON, c randfill.Continue) { j.Raw = randJSON(c, false) },
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(fmt.Sprintf(`{"f:%s":{}}`, jsonString(c.String(0))))
		},
		func(b *apiextv1.JSONSchemaPropsOrBool, c randfill.Continue) {
			*b = apiextv1.JSONSchemaPropsOrBool{Allows: c.Bool()}
			if c.Rand.Intn(3) == 0 {
				b.Allows, b.Schema = true, &apiextv1.JSONSchemaProps{}
				c.Fill(b.Schema)
			}
		},
		func(a *apiextv1.JSONSchemaPropsOrArray, c randfill.Continue) {
			*a = apiextv1.JSONSchemaPropsOrArray{}
			if c.Bool() {
				a.Schema = &apiextv1.JSONSchemaProps{}
				c.Fill(a.Schema)
			} else {
				a.JSONSchemas = make([]apiextv1.JSONSchemaProps, 1+c.Rand.Intn(2))
				for i := range a.JSONSchemas {
					c.Fill(&a.JSONSchemas[i])
				}
			}
		},
		func(a *apiextv1.JSONSchemaPropsOrStringArray, c randfill.Continue) {
			*a = apiextv1.JSONSchemaPropsOrStringArray{}
			if c.Bool() {
				a.Schema = &apiextv1.JSONSchemaProps{}
				c.Fill(a.Schema)
			} else {
				a.Property = []string{c.String(0), c.String(0)}
			}
		},
	)
}

// Mostly upstream's random Unicode; now and then bytes that are not UTF-8 (which Go's protobuf code
// keeps as they are and its JSON writes as U+FFFD, one per bad byte).
func randString(c randfill.Continue) string {
	if c.Rand.Intn(20) != 0 {
		return c.String(0)
	}
	pieces := []string{"\xff", "\xc0\x80", "\xe2\x82", "\xed\xa0\x80", "\xf0\x9f\x98", "\xf4\x90\x80\x80", "\xc2", "a", "é", "\u2028", "<&>"}
	var b strings.Builder
	for i := 1 + c.Rand.Intn(4); i > 0; i-- {
		b.WriteString(pieces[c.Rand.Intn(len(pieces))])
	}
	return b.String()
}

// Seconds from year 1 to 9999, the zero time now and then.
func randSeconds(r *rand.Rand) int64 {
	const year1, year10000 = -62135596800, 253402300800
	if r.Intn(10) == 0 {
		return year1
	}
	return year1 + 1 + r.Int63n(year10000-year1-1)
}

func randQuantity(r *rand.Rand) resource.Quantity {
	suffixes := []string{"", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "E-2", "e0"}
	text := fmt.Sprint(r.Int63n(1 << uint(r.Intn(63))))
	if r.Intn(3) == 0 {
		text += "." + fmt.Sprint(r.Int63n(1000000))
	}
	if r.Intn(4) == 0 {
		text = "-" + text
	}
	q, err := resource.ParseQuantity(text + suffixes[r.Intn(len(suffixes))])
	if err != nil {
		return resource.MustParse("1")
	}
	return q
}

func randJSON(c randfill.Continue, object bool) []byte {
	if !object && c.Rand.Intn(4) == 0 {
		return []byte(fmt.Sprint(c.Rand.Int31n(1000)))
	}
	m := map[string]any{}
	for i := c.Rand.Intn(3); i > 0; i-- {
		// Number-like keys too: JavaScript lists them first, so kubesdk must write Go's order back.
		key := c.String(0)
		if c.Rand.Intn(3) == 0 {
			key = fmt.Sprint(c.Rand.Intn(20))
		}
		m[key] = []any{c.String(0), c.Rand.Int31(), c.Bool(), nil}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
