// The write rows' HTTP/1.1 client in Go (scripts/bench/write-clients.ts starts it): a load
// generator must cost far less than the server it measures. At one client the Node bench client
// spent about 170 µs of CPU per create against the reference server's 260, so the row timed the
// client nearly as much as the server, and against kube-apiserver (about 2 ms per create) hardly
// at all. The requests are bench-writes.ts's: the same ConfigMaps, verbs and headers. Go's net/http
// client still cost 100–120 µs per request there, so this one writes each request as bytes on one
// of its TLS connections (opened before the clock, one per concurrent client, as the watch reader
// does) and reads the answer with a minimal HTTP/1.1 reader (response.go).
//
// Messages are JSON lines: stdin {"setup": …}, then one {"run": …} per batch, then EOF; stdout
// "ready" after the setup, and per run {"done": …} or {"failed": "…"}; a failed run ends the
// process.
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type setup struct {
	URL   string `json:"url"`
	CA    string `json:"ca"`
	Token string `json:"token"`
	// Connections is the most clients any run uses: that many keep-alive connections are kept.
	Connections int `json:"connections"`
}

type run struct {
	Verb      string `json:"verb"`
	Namespace string `json:"namespace"`
	Count     int    `json:"count"`
	Clients   int    `json:"clients"`
}

type done struct {
	WallMs    float64   `json:"wallMs"`
	Latencies []float64 `json:"latenciesMs"`
	CPUMicros int64     `json:"cpuMicros"`
}

// messages reads stdin's JSON lines and answers on stdout, one JSON line each.
type messages struct {
	in  *json.Decoder
	out *json.Encoder
}

// failed answers {"failed": …} and ends the process.
func (m messages) failed(err error) {
	m.out.Encode(map[string]string{"failed": err.Error()})
	os.Exit(1)
}

func main() {
	m := messages{in: json.NewDecoder(os.Stdin), out: json.NewEncoder(os.Stdout)}
	var first struct {
		Setup *setup `json:"setup"`
	}
	if err := m.in.Decode(&first); err != nil || first.Setup == nil {
		m.failed(fmt.Errorf("the first message is not a setup: %v", err))
	}
	c, err := newClient(first.Setup)
	if err != nil {
		m.failed(err)
	}
	m.out.Encode("ready")
	for {
		var next struct {
			Run *run `json:"run"`
		}
		if err := m.in.Decode(&next); err == io.EOF {
			return
		} else if err != nil || next.Run == nil {
			m.failed(fmt.Errorf("expected a run: %v", err))
		}
		result, err := c.runBatch(*next.Run)
		if err != nil {
			m.failed(err)
		}
		m.out.Encode(map[string]done{"done": result})
	}
}

type client struct {
	conns []*connection
	host  string
	token string
}

// newClient opens `Connections` TLS connections, HTTP/1.1 only.
func newClient(s *setup) (*client, error) {
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(s.CA)) {
		return nil, errors.New("the setup's CA holds no certificate")
	}
	if s.Connections < 1 {
		return nil, errors.New("connections must be at least 1")
	}
	config := &tls.Config{RootCAs: roots, ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}}
	c := &client{host: u.Host, token: s.Token}
	for range s.Connections {
		conn, err := tls.Dial("tcp", u.Host, config)
		if err != nil {
			return nil, err
		}
		c.conns = append(c.conns, newConnection(conn))
	}
	return c, nil
}

// request builds bench-writes.ts's writeRequest for object i as the bytes of an HTTP/1.1 request.
func (c *client) request(verb, ns string, i int) ([]byte, error) {
	name := fmt.Sprintf("cm-%d", i)
	collection := "/api/v1/namespaces/" + ns + "/configmaps"
	object := func(data string) []byte {
		return []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":%q,`+
			`"labels":{"app":"bench","shard":"%d"}},"data":%s}`, name, ns, i%10, data))
	}
	var method, path, contentType string
	var body []byte
	switch verb {
	case "create":
		method, path, contentType = "POST", collection, "application/json"
		body = object(fmt.Sprintf(`{"key":"value-%d","other":%q}`, i, strings.Repeat("x", 100)))
	case "update":
		method, path, contentType = "PUT", collection+"/"+name, "application/json"
		body = object(fmt.Sprintf(`{"key":"updated-%d"}`, i))
	case "apply":
		method, path, contentType = "PATCH", collection+"/"+name+"?fieldManager=bench&force=true", "application/apply-patch+yaml"
		body = object(fmt.Sprintf(`{"applied":"applied-%d"}`, i))
	case "delete":
		method, path = "DELETE", collection+"/"+name
	default:
		return nil, fmt.Errorf("unknown verb %q", verb)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nhost: %s\r\nauthorization: Bearer %s\r\naccept: application/json\r\n", method, path, c.host, c.token)
	if body != nil {
		fmt.Fprintf(&b, "content-type: %s\r\ncontent-length: %d\r\n", contentType, len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes(), nil
}

// runBatch sends objects 0 … count-1 from `clients` goroutines, each taking the next index; the
// first failure ends the batch.
func (c *client) runBatch(r run) (done, error) {
	if r.Clients < 1 || r.Clients > len(c.conns) || r.Count < 0 {
		return done{}, fmt.Errorf("a run needs 1 to %d clients and a count ≥ 0", len(c.conns))
	}
	latencies := make([]float64, r.Count)
	var next atomic.Int64
	var failure error
	var once sync.Once
	var wg sync.WaitGroup
	cpu0 := cpuMicros()
	t0 := time.Now()
	for _, conn := range c.conns[:r.Clients] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= r.Count {
					return
				}
				started := time.Now()
				req, err := c.request(r.Verb, r.Namespace, i)
				if err == nil {
					err = conn.roundTrip(req)
				}
				if err != nil {
					once.Do(func() { failure = err })
					next.Store(int64(r.Count))
					return
				}
				latencies[i] = float64(time.Since(started).Microseconds()) / 1000
			}
		}()
	}
	wg.Wait()
	if failure != nil {
		return done{}, failure
	}
	wall := float64(time.Since(t0).Microseconds()) / 1000
	return done{WallMs: wall, Latencies: latencies, CPUMicros: cpuMicros() - cpu0}, nil
}

func cpuMicros() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
}
