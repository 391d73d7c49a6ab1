package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// fieldFacts is what encoding/json and the generated protobuf code do with one Go struct field.
type fieldFacts struct {
	GoName string `json:"goName"`
	// Proto field name and number from the `protobuf` tag.
	Proto  string `json:"proto"`
	Number int    `json:"number"`
	// JSON key; "" for a struct embedded without a name, whose fields join the parent's object.
	JSON      string `json:"json"`
	Pointer   bool   `json:"pointer"`
	OmitEmpty bool   `json:"omitEmpty"`
	OmitZero  bool   `json:"omitZero"`
	// Go kind of the field's type with the pointer removed: scalar, bytes, slice, map or struct.
	Kind string `json:"kind"`
}

type messageFacts struct {
	// Protobuf full name, as generated.proto names the message of this Go type.
	Name   string `json:"name"`
	GoType string `json:"goType"`
	// "struct", or "slice" for a named slice type (ExtraValue, Verbs) that protobuf wraps in a
	// message with one repeated field, items.
	GoKind string `json:"goKind"`
	// The type reads and writes its own JSON (UnmarshalJSON, MarshalJSON), so its fields say
	// nothing about its JSON form and are not listed.
	CustomJSON bool         `json:"customJson"`
	Fields     []fieldFacts `json:"fields"`
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// collector walks Go types from the roots to every struct type of a k8s.io package they reach.
type collector struct {
	seen     map[reflect.Type]bool
	messages map[string]messageFacts
}

func newCollector() *collector {
	return &collector{seen: map[reflect.Type]bool{}, messages: map[string]messageFacts{}}
}

func (c *collector) walk(t reflect.Type) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		if t.Kind() == reflect.Slice && t.Name() != "" && strings.HasPrefix(t.PkgPath(), "k8s.io/") {
			if err := c.add(namedSliceFacts(t)); err != nil {
				return err
			}
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		if err := c.walk(t.Key()); err != nil {
			return err
		}
		return c.walk(t.Elem())
	}
	if t.Kind() != reflect.Struct || c.seen[t] || !strings.HasPrefix(t.PkgPath(), "k8s.io/") {
		return nil
	}
	c.seen[t] = true
	message, err := factsOf(t)
	if err != nil {
		return fmt.Errorf("%s.%s: %w", t.PkgPath(), t.Name(), err)
	}
	// Structs that are no protobuf message are listed too; codegen keeps the ones that are.
	if err := c.add(message); err != nil {
		return err
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			if err := c.walk(f.Type); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *collector) add(message messageFacts) error {
	if other, taken := c.messages[message.Name]; taken && other.GoType != message.GoType {
		return fmt.Errorf("%s and %s both name protobuf message %s", other.GoType, message.GoType, message.Name)
	}
	c.messages[message.Name] = message
	return nil
}

func namedSliceFacts(t reflect.Type) messageFacts {
	return messageFacts{
		Name:   protoPackageOf(t.PkgPath()) + "." + t.Name(),
		GoType: t.PkgPath() + "." + t.Name(),
		GoKind: "slice",
		Fields: []fieldFacts{},
	}
}

// factsOf lists the fields with a protobuf tag, in struct order (the order encoding/json writes).
func factsOf(t reflect.Type) (messageFacts, error) {
	message := messageFacts{
		Name:       protoPackageOf(t.PkgPath()) + "." + t.Name(),
		GoType:     t.PkgPath() + "." + t.Name(),
		GoKind:     "struct",
		CustomJSON: reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler),
		Fields:     []fieldFacts{},
	}
	if message.CustomJSON {
		return message, nil
	}
	var jsonOnly []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		tag, tagged := f.Tag.Lookup("protobuf")
		if !tagged || tag == "-" || !f.IsExported() {
			jsonOnly = append(jsonOnly, f)
			continue
		}
		facts, err := fieldFactsOf(f, tag)
		if err != nil {
			return message, fmt.Errorf("field %s: %w", f.Name, err)
		}
		message.Fields = append(message.Fields, facts)
	}
	if len(message.Fields) > 0 {
		for _, f := range jsonOnly {
			if err := checkJSONOnly(f); err != nil {
				return message, fmt.Errorf("field %w", err)
			}
		}
	}
	return message, nil
}

func fieldFactsOf(f reflect.StructField, protobufTag string) (fieldFacts, error) {
	facts := fieldFacts{GoName: f.Name}
	parts := strings.Split(protobufTag, ",")
	if len(parts) < 3 {
		return facts, fmt.Errorf("unexpected protobuf tag %q", protobufTag)
	}
	number, err := strconv.Atoi(parts[1])
	if err != nil || number <= 0 {
		return facts, fmt.Errorf("protobuf tag %q has no field number", protobufTag)
	}
	facts.Number = number
	for _, option := range parts[2:] {
		if name, ok := strings.CutPrefix(option, "name="); ok {
			facts.Proto = name
		}
	}
	if facts.Proto == "" {
		// go-to-protobuf names an unnamed field after the Go field, first letter lowered
		// (EphemeralContainerCommon); codegen checks the name against the descriptor.
		facts.Proto = strings.ToLower(f.Name[:1]) + f.Name[1:]
	}
	name, options := jsonTagOf(f)
	if name == "-" && len(options) == 0 {
		return facts, fmt.Errorf("a protobuf field left out of JSON (json:\"-\") is not supported")
	}
	for _, option := range options {
		switch option {
		case "omitempty":
			facts.OmitEmpty = true
		case "omitzero":
			facts.OmitZero = true
		case "inline":
			// a kubernetes convention that encoding/json ignores: an embedded struct is inlined anyway
		default:
			return facts, fmt.Errorf("json tag option %q is not supported", option)
		}
	}
	facts.JSON = jsonNameOf(f, name)
	t := f.Type
	if t.Kind() == reflect.Pointer {
		facts.Pointer = true
		t = t.Elem()
	}
	if facts.Kind, err = kindOf(t); err != nil {
		return facts, err
	}
	if facts.JSON == "" && (facts.Pointer || facts.Kind != "struct") {
		return facts, fmt.Errorf("only non-pointer structs are inlined into the parent's JSON")
	}
	return facts, nil
}

// checkJSONOnly rejects a field protobuf leaves out but encoding/json writes even when empty:
// after protobuf decoding it is always empty, so the codec would have to invent its JSON.
func checkJSONOnly(f reflect.StructField) error {
	name, options := jsonTagOf(f)
	if name == "-" && len(options) == 0 || !f.IsExported() && !f.Anonymous {
		return nil
	}
	if f.Anonymous && f.Type.Kind() == reflect.Struct && jsonNameOf(f, name) == "" {
		// An embedded struct (TypeMeta of a kind): its fields join the parent's JSON one by one.
		for i := range f.Type.NumField() {
			if err := checkJSONOnly(f.Type.Field(i)); err != nil {
				return fmt.Errorf("%s.%w", f.Name, err)
			}
		}
		return nil
	}
	// omitempty never leaves out a struct; omitzero does when it is zero.
	if slices.Contains(options, "omitzero") || slices.Contains(options, "omitempty") && f.Type.Kind() != reflect.Struct {
		return nil
	}
	return fmt.Errorf("%s is not in protobuf but JSON writes it when empty", f.Name)
}

func jsonTagOf(f reflect.StructField) (string, []string) {
	tag, ok := f.Tag.Lookup("json")
	if !ok {
		return "", nil
	}
	name, rest, _ := strings.Cut(tag, ",")
	if rest == "" {
		return name, nil
	}
	return name, strings.Split(rest, ",")
}

// jsonNameOf follows encoding/json: an unnamed embedded struct is inlined, an untagged field is
// written under its Go name.
func jsonNameOf(f reflect.StructField, tagName string) string {
	if tagName != "" {
		return tagName
	}
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if f.Anonymous && t.Kind() == reflect.Struct {
		return ""
	}
	return f.Name
}

func kindOf(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes", nil
		}
		return "slice", nil
	case reflect.Map:
		return "map", nil
	case reflect.Struct:
		return "struct", nil
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int32, reflect.Int64, reflect.Uint32,
		reflect.Uint64, reflect.Float32, reflect.Float64:
		return "scalar", nil
	default:
		return "", fmt.Errorf("unsupported Go kind %s", t.Kind())
	}
}

// protoPackageOf names a Go package's protobuf package as go-to-protobuf does:
// "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1" → "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1".
func protoPackageOf(goPackage string) string {
	return strings.NewReplacer("/", ".", "-", "_").Replace(goPackage)
}
