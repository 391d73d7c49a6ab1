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
	"runtime/debug"
	"runtime/pprof"
	"sync/atomic"
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
	start := make(chan struct{})
	results := make(chan error, s.Watchers)
	if err := connectAll(s, start, results); err != nil {
		fail(err)
	}
	send("ready")
	if !in.Scan() || in.Text() != `"go"` {
		fail(errors.New(`expected "go" on stdin`))
	}
	stopProfile := profile()
	result, err := runAll(s.Watchers, start, results)
	stopProfile()
	if err != nil {
		fail(err)
	}
	send(map[string]done{"done": result})
}

// connectAll opens one TLS connection per watcher, handshakes done (they are not delivery), a few
// at a time; each stream's goroutine then waits for `start` to be closed, so the goroutines and
// their stacks (grown by the handshake) exist before the clock.
func connectAll(s *setup, start <-chan struct{}, results chan<- error) error {
	u, err := url.Parse(s.URL)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(s.CA)) {
		return errors.New("the setup's CA holds no certificate")
	}
	config := &tls.Config{RootCAs: roots, ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}}
	w := &watch{
		request: []byte("GET " + s.Path + " HTTP/1.1\r\nhost: " + u.Host + "\r\nauthorization: Bearer " +
			s.Token + "\r\naccept: application/json\r\n\r\n"),
		events:              s.Events,
		lastResourceVersion: s.LastResourceVersion,
	}
	handshakes := make(chan struct{}, openers)
	opened := make(chan error, s.Watchers)
	for range s.Watchers {
		go func() {
			handshakes <- struct{}{}
			conn, err := tls.Dial("tcp", u.Host, config)
			<-handshakes
			opened <- err
			if err != nil {
				return
			}
			st := &stream{w: w, conn: conn, buf: make([]byte, bufferSize)}
			<-start
			err = st.run()
			// Closed as the Node reader's destroy(): no TLS close_notify, the TCP socket only.
			conn.NetConn().Close()
			totalBytes.Add(st.bytes)
			results <- err
		}()
	}
	for range s.Watchers {
		if err := <-opened; err != nil {
			return err
		}
	}
	return nil
}

// totalBytes sums the data bytes of all streams.
var totalBytes atomic.Int64

// profile writes a CPU profile of the timed part to $BENCH_REPLAY_GO_PROFILE, when set (for `go
// tool pprof`); the returned function stops it.
func profile() func() {
	path := os.Getenv("BENCH_REPLAY_GO_PROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s.%d", path, os.Getpid()))
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fail(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func cpuMicros() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
}

// runAll starts every stream at once and waits for them; the first failure is the result. The
// collector is off meanwhile: the streams allocate little, and a cycle would be the reader's cost.
func runAll(watchers int, start chan<- struct{}, results <-chan error) (done, error) {
	debug.SetGCPercent(-1)
	cpu0 := cpuMicros()
	t0 := time.Now()
	close(start)
	for range watchers {
		if err := <-results; err != nil {
			return done{}, err
		}
	}
	wall := time.Since(t0)
	return done{CPUMicros: cpuMicros() - cpu0, WallMs: float64(wall.Microseconds()) / 1000, Bytes: totalBytes.Load()}, nil
}
