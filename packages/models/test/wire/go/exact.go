package main

// Exactness cases: bytes and JSON texts at the edges of the wire codec (int64 range, invalid
// UTF-8, repeated message fields, odd timestamps, quantities, JSON that Go accepts or rejects),
// each with what the upstream Go code makes of it: the JSON it writes for the bytes, the bytes it
// writes for the JSON, or the error it fails with.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A bytes case: Go decodes PB to JSON, or fails with Error.
type pbCase struct {
	Name  string          `json:"name"`
	PB    string          `json:"pb"`
	JSON  json.RawMessage `json:"json,omitempty"`
	Error string          `json:"error,omitempty"`
}

// A JSON case: Go decodes Text (as the apiserver does) and writes PB, or fails with Error.
type jsonCase struct {
	Name  string `json:"name"`
	Text  string `json:"text"`
	PB    string `json:"pb,omitempty"`
	Error string `json:"error,omitempty"`
}

// Protobuf wire helpers for bytes Go's own types cannot produce.
func varint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
func lenField(id int, payload ...[]byte) []byte {
	var body []byte
	for _, p := range payload {
		body = append(body, p...)
	}
	return append(append(varint(uint64(id<<3|2)), varint(uint64(len(body)))...), body...)
}
func intField(id int, v int64) []byte { return append(varint(uint64(id<<3)), varint(uint64(v))...) }
func str(id int, s string) []byte     { return lenField(id, []byte(s)) }
func timestamp(id int, seconds, nanos int64) []byte {
	return lenField(id, intField(1, seconds), intField(2, nanos))
}

func seal(apiVersion, kind string, raw []byte) []byte {
	u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: apiVersion, Kind: kind}, Raw: raw}
	b, err := u.Marshal()
	if err != nil {
		panic(err)
	}
	return append([]byte("k8s\x00"), b...)
}

// rawOf is the message bytes inside an enveloped object.
func rawOf(obj runtime.Object) []byte {
	u := runtime.Unknown{}
	if err := u.Unmarshal(pb(obj)[4:]); err != nil {
		panic(err)
	}
	return u.Raw
}

func pbCaseOf(name string, data []byte) pbCase {
	c := pbCase{Name: name, PB: base64.StdEncoding.EncodeToString(data)}
	obj, gvk, err := pbCodec.Decode(data, nil, nil)
	if err != nil {
		c.Error = err.Error()
		return c
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	c.JSON = js(obj)
	return c
}

func decodeJSON(name, text string) jsonCase {
	c := jsonCase{Name: name, Text: text}
	obj, _, err := jsonCodec.Decode([]byte(text), nil, nil)
	if err != nil {
		c.Error = err.Error()
		return c
	}
	c.PB = base64.StdEncoding.EncodeToString(pb(obj))
	return c
}

var quantities = []string{"1.5", "1500m", "+1", "01", "1024Mi", "8Gi", "1Gi", "1.5Ki", "0.5Gi", ".5", "5.", "1.G", "-", "-1.5", "1e3", "1E3", "1e-10", "1e+5",
	"1n", "0.000", "100000000000000000000", "1.0000000001", "9223372036854775808Ki", "12345678901234567890", "1e30", "0.1Ki", "1025", "2048",
	"1000000k", "1000Ki", "-1024", "123456789012345678.9", "", " 1 ", "abc", "1K", "12e", "1ee", "e3", "1.2.3", "\t2"}

func exactCases() ([]pbCase, []jsonCase) { return pbCases(), jsonCases() }

func pbCases() []pbCase {
	cm := func(meta metav1.ObjectMeta, data map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{TypeMeta: tm("ConfigMap", "v1"), ObjectMeta: meta, Data: data}
	}
	created := metav1.Unix(1767323045, 0)
	pbs := []pbCase{
		pbCaseOf("int64-max", pb(cm(metav1.ObjectMeta{Name: "big", Generation: math.MaxInt64}, nil))),
		pbCaseOf("int64-min", pb(cm(metav1.ObjectMeta{Name: "small", Generation: math.MinInt64}, nil))),
		pbCaseOf("int64-2^53+1", pb(cm(metav1.ObjectMeta{Name: "odd", Generation: 1<<53 + 1}, nil))),
		pbCaseOf("int64-2^53-1", pb(cm(metav1.ObjectMeta{Name: "safe", Generation: 1<<53 - 1}, nil))),
		pbCaseOf("utf8-invalid", pb(cm(metav1.ObjectMeta{Name: "bad\xff"}, map[string]string{
			"k\xe2\x82":  "a\xffb\xe2\x82\xacc\xed\xa0\x80d\xf0\x9f\x98",
			"\xc0\x80":   "\xf4\x90\x80\x80|\xe0\x80\xaf|\xf0\x80\x80\x80|\xc2",
			"fine\u00e9": "\U0001F600 \u2028",
		}))),
		// Long strings take other paths than short ones: invalid bytes past the 24th and 32nd,
		// valid multi-byte text, and a valid U+FFFD among them.
		pbCaseOf("utf8-invalid-long", pb(cm(metav1.ObjectMeta{Name: "a-name-of-more-than-24-bytes\xff"}, map[string]string{
			"long-invalid":  "0123456789abcdefghijklmnopqrstuv\xe2\x82|\xed\xa0\x80|\xf0\x9f\x98|\xc0\x80|end",
			"long-valid":    "caf\u00e9 \u65e5\u672c\u8a9e \U0001F600 0123456789abcdefghijklmnopqrstuvwxyz",
			"long-fffd":     "\ufffd0123456789abcdefghijklmnopqrstuvwxyz\xff",
			"short-fffd":    "\ufffd\xff",
			"valid-fffd":    "a\ufffdb",
			"mid-invalid-1": "0123456789abcdefghijklm\x80",
			"mid-invalid-2": "0123456789abcdefghijklmn\x80",
		}))),
		pbCaseOf("merge-object-meta", seal("v1", "ConfigMap", append(
			rawOf(cm(metav1.ObjectMeta{Name: "a", Finalizers: []string{"x"}, Labels: map[string]string{"l1": "1", "same": "first"}, CreationTimestamp: created}, map[string]string{"a": "1"})),
			rawOf(cm(metav1.ObjectMeta{Namespace: "b", Finalizers: []string{"y"}, Labels: map[string]string{"l2": "2", "same": "second"}}, map[string]string{"b": "2"}))...))),
		pbCaseOf("merge-nested", seal("v1", "Pod", append(
			rawOf(&corev1.Pod{TypeMeta: tm("Pod", "v1"), ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{{Name: "a"}}, SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr(int64(1))}}}),
			rawOf(&corev1.Pod{TypeMeta: tm("Pod", "v1"), Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "b"}}, SecurityContext: &corev1.PodSecurityContext{RunAsGroup: ptr(int64(2))}}, Status: corev1.PodStatus{Phase: "Running"}})...))),
		// Volume{volumeSource{configMap{name}}, name, volumeSource{configMap{defaultMode}}}: the
		// inlined VolumeSource (and its inlined LocalObjectReference) merge; a volume without one.
		pbCaseOf("merge-inline-struct", seal("v1", "Pod", lenField(2,
			lenField(1, lenField(2, lenField(19, lenField(1, str(1, "a")))), str(1, "v"), lenField(2, lenField(19, intField(3, 420)))),
			lenField(1, str(1, "empty"))))),
		pbCaseOf("merge-time-replaced", seal("v1", "ConfigMap", append(
			lenField(1, str(1, "t"), timestamp(8, 1767323045, 0)), lenField(1, timestamp(8, 1767323999, 0))...))),
		// properties{"a": {not: {description: x}, not: {type: string}}}: the two nots merge.
		pbCaseOf("merge-in-map-value", seal("apiextensions.k8s.io/v1", "CustomResourceDefinition", lenField(2, lenField(7, str(1, "v1"),
			lenField(4, lenField(1, lenField(29, str(1, "a"), lenField(2, lenField(28, str(4, "x")), lenField(28, str(5, "string")))))))))),
		pbCaseOf("time-nanos-out-of-range", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e"), timestamp(8, 10, 1_500_000_000)), timestamp(2, 20, -1)...))),
		pbCaseOf("time-nanos-negative", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e"), timestamp(8, 10, -5)), timestamp(2, 20, -1_500_000)...))),
		pbCaseOf("microtime-nanos-over", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e")), timestamp(2, 20, 2_000_123_999)...))),
		pbCaseOf("time-year-10000", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e"), timestamp(8, 253402300800, 0)), timestamp(2, 253402300800+86399, 999_999_000)...))),
		pbCaseOf("time-year-minus-1", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e"), timestamp(8, -62198755200, 0)), timestamp(2, -62167219200, 0)...))),
		pbCaseOf("time-explicit-zero", seal("events.k8s.io/v1", "Event", append(
			lenField(1, str(1, "e"), timestamp(8, -62135596800, 0)), timestamp(2, -62135596800, 999)...))),
	}
	for _, q := range quantities {
		raw := lenField(2, lenField(1, str(1, "q"), lenField(2, str(1, q))))
		pbs = append(pbs, pbCaseOf(fmt.Sprintf("quantity %q", q), seal("v1", "ResourceQuota", raw)))
	}
	return pbs
}

func jsonCases() []jsonCase {
	obj := func(apiVersion, kind, body string) string {
		return fmt.Sprintf(`{"apiVersion":%q,"kind":%q,%s}`, apiVersion, kind, body)
	}
	texts := [][2]string{
		{"int64-max", obj("v1", "ConfigMap", `"metadata":{"name":"big","generation":9223372036854775807}`)},
		{"int64-2^64", obj("v1", "ConfigMap", `"metadata":{"name":"big","generation":18446744073709551616}`)},
		{"int64-2^63", obj("v1", "ConfigMap", `"metadata":{"name":"big","generation":9223372036854775808}`)},
		{"int64-1e300", obj("v1", "ConfigMap", `"metadata":{"name":"big","generation":1e300}`)},
		{"int64-min", obj("v1", "ConfigMap", `"metadata":{"name":"small","generation":-9223372036854775808}`)},
		{"base64-lf", obj("v1", "Secret", `"data":{"k":"YWJj\nZGVm"}`)},
		{"base64-crlf", obj("v1", "Secret", `"data":{"k":"YWJj\r\nZGVm\r\n"}`)},
		{"lone-surrogates", obj("v1", "ConfigMap", `"metadata":{"name":"s"},"data":{"k\ud800":"\udc00x\ud83d","ok":"\ud83d\ude00"}`)},
		{"intorstring-lone-surrogate", obj("v1", "Service", `"metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":"\udc00x"}]}`)},
		{"time-fraction", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02T03:04:05.5Z"}`)},
		{"time-lower-t", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02t03:04:05Z"}`)},
		{"time-lower-z", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02T03:04:05z"}`)},
		{"time-one-digit-hour", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02T3:04:05Z"}`)},
		{"time-comma-fraction", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02T03:04:05,25+01:30"}`)},
		{"time-offset-24", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"2026-01-02T03:04:05+24:00"}`)},
		{"time-year-10000", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"10000-01-01T00:00:00Z"}`)},
		{"time-year-0", obj("v1", "ConfigMap", `"metadata":{"name":"t","creationTimestamp":"0000-03-01T00:00:00Z"}`)},
		{"microtime-six", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02T03:04:05.123456Z"`)},
		{"microtime-comma", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02T03:04:05,123456Z"`)},
		{"microtime-none", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02T03:04:05Z"`)},
		{"microtime-three", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02T03:04:05.123Z"`)},
		{"microtime-nine", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02T03:04:05.123456789Z"`)},
		{"microtime-lower-t", obj("events.k8s.io/v1", "Event", `"metadata":{"name":"e"},"eventTime":"2026-01-02t03:04:05.123456Z"`)},
	}
	var jsons []jsonCase
	for _, t := range texts {
		jsons = append(jsons, decodeJSON(t[0], t[1]))
	}
	// Not "\t2": Go reads the JSON string's bytes without unescaping them (and so fails on "\t"),
	// which a codec handed parsed JSON cannot tell from a real tab.
	for _, q := range append(quantities[:len(quantities)-1], " 2 ", "3 ", "\u00a04") {
		text := obj("v1", "ResourceQuota", fmt.Sprintf(`"metadata":{"name":"q"},"spec":{"hard":{"q":%s}}`, js(q)))
		jsons = append(jsons, decodeJSON(fmt.Sprintf("quantity %q", q), text))
	}
	return append(jsons, decodeJSON("quantity number 1.5", obj("v1", "ResourceQuota", `"spec":{"hard":{"q":1.5}}`)))
}
