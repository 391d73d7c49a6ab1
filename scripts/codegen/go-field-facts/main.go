// Command go-field-facts prints, as JSON, the facts about every Go struct field behind a protobuf
// message field of the built-in Kubernetes types that the protobuf descriptors cannot tell: the
// JSON name (or inlining), whether the field is a pointer, its omitempty/omitzero options and its
// Go kind. The wire codec needs them to write the JSON encoding/json writes after protobuf
// decoding, and the protobuf the generated Go code writes after JSON decoding.
//
// `pnpm codegen` runs it (GOTOOLCHAIN=local GOFLAGS=-mod=mod go run .) and turns the output into
// packages/models/src/generated/wire-facts.ts.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
)

type output struct {
	Messages []messageFacts `json:"messages"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "go-field-facts: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	scheme, err := builtInScheme()
	if err != nil {
		return err
	}
	var roots []reflect.Type
	for _, t := range scheme.AllKnownTypes() {
		roots = append(roots, t)
	}
	for _, v := range extraRoots {
		roots = append(roots, reflect.TypeOf(v))
	}
	c := newCollector()
	for _, t := range roots {
		if err := c.walk(t); err != nil {
			return err
		}
	}
	out := output{Messages: make([]messageFacts, 0, len(c.messages))}
	for _, m := range c.messages {
		out.Messages = append(out.Messages, m)
	}
	sort.Slice(out.Messages, func(i, j int) bool { return out.Messages[i].Name < out.Messages[j].Name })
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetEscapeHTML(false)
	return encoder.Encode(out)
}
