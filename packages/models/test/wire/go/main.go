// Command go-wire is the upstream Go side of the wire codec's tests: the differential fuzz test
// (go-fuzz.test.ts) and the fixed vectors (vectors.json, read by go-vectors.test.ts and go-exact.test.ts).
//
//	go-wire gen    -seed S -n N            objects as JSON lines {i, kind, json, pb} (or {i, kind, skip})
//	go-wire verify -seed S -n N < answers  reads kubesdk's encodings {i, pb}, reports mismatches
//	go-wire vectors                        writes the fixed vectors (vectors.go, exact.go) to stdout
//
// Object i is a random object of kind i mod (number of kinds), filled by upstream's randfill from
// seed S and i alone, so any failure replays from its seed and index (-only i). The expected JSON
// and protobuf are Go's for the object as Go reads its own JSON back, so both sides start from a
// value Go itself keeps stable.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Every kind of the built-in API groups with a protobuf form, in a fixed order. The option and
// event types every group version registers (ListOptions, WatchEvent, ...) are left to the meta
// group's own kinds.
func kinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for gvk, t := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		if strings.HasSuffix(t.PkgPath(), "apis/meta/v1") || strings.HasSuffix(t.PkgPath(), "apis/meta/v1beta1") {
			continue
		}
		if _, ok := scheme.New(gvk); ok != nil {
			continue
		}
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

type sample struct {
	I    int    `json:"i"`
	Kind string `json:"kind"`
	JSON string `json:"json,omitempty"`
	PB   string `json:"pb,omitempty"`
	// Go's bytes for the random object itself (strings not UTF-8 among them), when Go decodes
	// them to JSON too.
	RawPB string `json:"rawPB,omitempty"`
	Skip  string `json:"skip,omitempty"`
}

func encodePB(obj runtime.Object) ([]byte, error) {
	var buf bytes.Buffer
	err := pbCodec.Encode(obj, &buf)
	return buf.Bytes(), err
}

func decodePB(data []byte) (runtime.Object, error) {
	obj, gvk, err := pbCodec.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	// The apiserver writes a list's items as [] when there are none, as kubesdk does.
	if meta.IsListType(obj) {
		if items, err := meta.ExtractList(obj); err == nil && len(items) == 0 {
			_ = meta.SetList(obj, []runtime.Object{})
		}
	}
	return obj, nil
}

// build makes object i: its kind, Go's JSON and protobuf for it, or why Go itself cannot keep it.
func build(seed int64, i int, all []schema.GroupVersionKind) (s sample, jsonBytes, pb []byte) {
	gvk := all[i%len(all)]
	s = sample{I: i, Kind: gvk.GroupVersion().String() + " " + gvk.Kind}
	obj, _ := scheme.New(gvk)
	filler(seed*1_000_003 + int64(i)).Fill(obj)
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	raw, err := encodePB(obj)
	if err != nil {
		s.Skip = "go cannot encode it: " + err.Error()
		return
	}
	fromPB, err := decodePB(raw)
	if err != nil {
		s.Skip = "go cannot decode its protobuf: " + err.Error()
		return
	}
	fromJSON, jsonBytes, err := stableJSON(fromPB)
	if err == nil {
		pb, err = stablePB(fromJSON, jsonBytes)
	}
	if err != nil {
		s.Skip = err.Error()
		return
	}
	s.JSON, s.PB = string(jsonBytes), base64.StdEncoding.EncodeToString(pb)
	if first, _ := json.Marshal(fromPB); sameJSON(first, jsonBytes) && !bytes.Equal(raw, pb) {
		s.RawPB = base64.StdEncoding.EncodeToString(raw)
	}
	return
}

// stableJSON is obj as Go reads it back from its JSON, and that JSON. What Go reads can differ from
// what it wrote the JSON from (a pointer to the zero Time is written as null and read as nil), so
// this repeats until the JSON reads back to itself.
func stableJSON(obj runtime.Object) (runtime.Object, []byte, error) {
	for round := 0; round < 3; round++ {
		jsonBytes, err := json.Marshal(obj)
		if err != nil {
			return nil, nil, fmt.Errorf("go cannot write its JSON: %w", err)
		}
		if obj, _, err = jsonCodec.Decode(jsonBytes, nil, nil); err != nil {
			return nil, nil, fmt.Errorf("go cannot read its JSON: %w", err)
		}
		if again, _ := json.Marshal(obj); bytes.Equal(again, jsonBytes) {
			return obj, jsonBytes, nil
		}
	}
	return nil, nil, fmt.Errorf("go's JSON does not round-trip")
}

// stablePB is Go's protobuf for obj, which Go must decode to jsonBytes (what kubesdk must decode it to).
func stablePB(obj runtime.Object, jsonBytes []byte) ([]byte, error) {
	pb, err := encodePB(obj)
	if err != nil {
		return nil, fmt.Errorf("go cannot encode it: %w", err)
	}
	back, err := decodePB(pb)
	if err != nil {
		return nil, fmt.Errorf("go cannot decode its protobuf: %w", err)
	}
	if decoded, _ := json.Marshal(back); !bytes.Equal(decoded, jsonBytes) {
		return nil, fmt.Errorf("go's protobuf does not round-trip: %s", clip(jsonBytes, decoded))
	}
	return pb, nil
}

type answer struct {
	I     int    `json:"i"`
	PB    string `json:"pb"`
	Error string `json:"error,omitempty"`
}

type failure struct {
	I       int    `json:"i"`
	Kind    string `json:"kind"`
	Problem string `json:"problem"`
}

// verify checks kubesdk's encoding of each object: Go must read it back to the object its JSON
// describes, and the bytes should be Go's own.
func verify(seed int64, all []schema.GroupVersionKind, in *bufio.Scanner) (checked int, failures []failure) {
	failures = []failure{}
	for in.Scan() {
		var a answer
		if err := json.Unmarshal(in.Bytes(), &a); err != nil {
			panic(err)
		}
		s, want, pb := build(seed, a.I, all)
		fail := func(format string, args ...any) {
			failures = append(failures, failure{I: a.I, Kind: s.Kind, Problem: fmt.Sprintf(format, args...)})
		}
		checked++
		got, _ := base64.StdEncoding.DecodeString(a.PB)
		obj, err := decodePB(got)
		if err != nil {
			fail("go cannot decode kubesdk's bytes: %v", err)
			continue
		}
		back, _ := json.Marshal(obj)
		if !bytes.Equal(back, want) {
			fail("go reads kubesdk's bytes as a different object:\n  want %s\n  got  %s", clip(want, back), clip(back, want))
		} else if !bytes.Equal(got, pb) {
			fail("same object, but not go's bytes: want %s, got %s", clipHex(pb, got), clipHex(got, pb))
			if dir := os.Getenv("KUBESDK_WIRE_FUZZ_DUMP"); dir != "" {
				_ = os.WriteFile(fmt.Sprintf("%s/%d.go.pb", dir, a.I), pb, 0o644)
				_ = os.WriteFile(fmt.Sprintf("%s/%d.kubesdk.pb", dir, a.I), got, 0o644)
			}
		}
	}
	return checked, failures
}

// sameJSON tells whether two JSON texts hold the same value (Go writes a bad byte as "\ufffd" but
// the character itself once it is read back).
func sameJSON(a, b []byte) bool {
	parse := func(text []byte) (v any) {
		d := json.NewDecoder(bytes.NewReader(text))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return nil
		}
		return v
	}
	va, vb := parse(a), parse(b)
	return va != nil && reflect.DeepEqual(va, vb)
}

// clipHex shows a around its first difference from b, in hex.
func clipHex(a, b []byte) string {
	at := 0
	for at < len(a) && at < len(b) && a[at] == b[at] {
		at++
	}
	from, to := max(0, at-24), min(len(a), at+24)
	return fmt.Sprintf("[%d:] % x | % x (%d bytes)", from, a[from:at], a[at:to], len(a))
}

// clip shows a around its first difference from b.
func clip(a, b []byte) string {
	at := 0
	for at < len(a) && at < len(b) && a[at] == b[at] {
		at++
	}
	from, to := max(0, at-80), min(len(a), at+80)
	return fmt.Sprintf("…%s…", a[from:to])
}

func main() {
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	seed := flags.Int64("seed", 1, "seed of the run")
	n := flags.Int("n", 1000, "number of objects")
	only := flags.Int("only", -1, "generate object i only")
	if err := flags.Parse(os.Args[2:]); err != nil {
		panic(err)
	}
	all := kinds()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	switch os.Args[1] {
	case "gen":
		for i := range *n {
			if *only >= 0 && i != *only {
				continue
			}
			s, _, _ := build(*seed, i, all)
			if err := enc.Encode(s); err != nil {
				panic(err)
			}
		}
	case "vectors":
		writeVectors()
	case "verify":
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(make([]byte, 1<<20), 1<<30)
		checked, failures := verify(*seed, all, in)
		if err := enc.Encode(map[string]any{"checked": checked, "kinds": len(all), "failures": failures}); err != nil {
			panic(err)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: go-wire gen|verify -seed S -n N, or go-wire vectors")
		os.Exit(2)
	}
}
