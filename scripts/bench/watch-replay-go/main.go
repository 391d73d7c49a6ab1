// The replay rows' HTTP/1.1 watch reader in Go (scripts/bench/watch-replay.ts starts it): a load
// generator must cost far less than the server it measures, and on the rows' two cores the Node
// readers used about twice the reference server's CPU. Same contract as watch-replay-client.ts
// with watch-replay-raw.ts: the TLS connections are opened before the clock, a few at a time; on
// "go" every watch is sent, each chunked body is parsed here and its data's newlines counted, and
// once a stream has its `events` lines only the last is parsed and checked (ADDED, the expected
// resourceVersion), then the connection is closed.
//
// Messages are JSON lines: stdin {"setup": …} then "go"; stdout "ready", then {"done": …} or
// {"failed": "…"}, and the process exits.
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"
)

type setup struct {
	URL                 string `json:"url"`
	CA                  string `json:"ca"`
	Token               string `json:"token"`
	HTTP2               bool   `json:"http2"`
	Path                string `json:"path"`
	Watchers            int    `json:"watchers"`
	Events              int    `json:"events"`
	LastResourceVersion string `json:"lastResourceVersion"`
}

type done struct {
	CPUMicros int64   `json:"cpuMicros"`
	WallMs    float64 `json:"wallMs"`
	Bytes     int64   `json:"bytes"`
}

// openers is how many handshakes run at once: hundreds at once only time the server's queue out.
const openers = 16

// bufferSize holds a whole TLS record's data, so a read is one record.
const bufferSize = 32 << 10

func send(message any) {
	line, _ := json.Marshal(message)
	os.Stdout.Write(append(line, '\n'))
}

func fail(err error) {
	send(map[string]string{"failed": err.Error()})
	os.Exit(1)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	var first struct {
		Setup *setup `json:"setup"`
	}
	if !in.Scan() {
		fail(errors.New("no setup on stdin"))
	}
	if err := json.Unmarshal(in.Bytes(), &first); err != nil || first.Setup == nil {
		fail(fmt.Errorf("the first line is not a setup: %v", err))
	}
	s := first.Setup
	if s.HTTP2 {
		fail(errors.New("the Go reader speaks HTTP/1.1 only"))
	}
	if s.Events < 1 {
		fail(errors.New("events must be at least 1"))
	}
	streams, err := connectAll(s)
	if err != nil {
		fail(err)
	}
	send("ready")
	if !in.Scan() || in.Text() != `"go"` {
		fail(errors.New(`expected "go" on stdin`))
	}
	result, err := runAll(streams)
	if err != nil {
		fail(err)
	}
	send(map[string]done{"done": result})
}

// connectAll opens one TLS connection per watcher, handshakes done (they are not delivery).
func connectAll(s *setup) ([]*stream, error) {
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(s.CA)) {
		return nil, errors.New("the setup's CA holds no certificate")
	}
	config := &tls.Config{RootCAs: roots, ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}}
	w := &watch{
		request: []byte("GET " + s.Path + " HTTP/1.1\r\nhost: " + u.Host + "\r\nauthorization: Bearer " +
			s.Token + "\r\naccept: application/json\r\n\r\n"),
		events:              s.Events,
		lastResourceVersion: s.LastResourceVersion,
	}
	streams := make([]*stream, s.Watchers)
	errs := make(chan error, openers)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(openers, s.Watchers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				conn, err := tls.Dial("tcp", u.Host, config)
				if err != nil {
					errs <- err
					return
				}
				streams[i] = &stream{w: w, conn: conn, buf: make([]byte, bufferSize)}
			}
		}()
	}
	return streams, dispatch(next, s.Watchers, errs, &wg)
}

// dispatch hands out 0…n-1 to the openers until they are done or one failed.
func dispatch(next chan<- int, n int, errs <-chan error, wg *sync.WaitGroup) error {
	defer wg.Wait()
	defer close(next)
	for i := range n {
		select {
		case next <- i:
		case err := <-errs:
			return err
		}
	}
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func cpuMicros() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
}

// runAll reads every stream at once, one goroutine each; the first failure is the result.
func runAll(streams []*stream) (done, error) {
	cpu0 := cpuMicros()
	t0 := time.Now()
	errs := make(chan error, len(streams))
	for _, st := range streams {
		go func() {
			err := st.run()
			// Closed as the Node reader's destroy(): no TLS close_notify, the TCP socket only.
			st.conn.NetConn().Close()
			errs <- err
		}()
	}
	for range streams {
		if err := <-errs; err != nil {
			return done{}, err
		}
	}
	wall := time.Since(t0)
	var total int64
	for _, st := range streams {
		total += st.bytes
	}
	return done{CPUMicros: cpuMicros() - cpu0, WallMs: float64(wall.Microseconds()) / 1000, Bytes: total}, nil
}
